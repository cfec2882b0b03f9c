#!/usr/bin/env node
// The Node.js peer of tagd-bench: a small JSON-RPC server over stdin/stdout with tagd's
// Content-Length framing and tagd's `field/change` rule (default field options only), written
// the way one would in plain Node: JSON.parse per message, JSON.stringify per reply, one write
// per read. No packages. Its replies to the benchmark's requests are byte-identical to tagd's
// (tagd-bench checks that before it measures anything).
//
// Methods: initialize, initialized, field/open {field, tags?, text?}, field/change
// {field, text}, field/state {field}, field/close {field}, shutdown, exit.
'use strict';

const fields = new Map();
const prompt = 'Add a tag';

function isSeparator(code) {
  return code === 44 || code === 10 || code === 13; // ',' LF CR
}

// Unicode full case mapping both ways, then canonical composition: tagd's CaselessKey
// (dotless i aside, which this peer does not special-case).
function keyOf(text) {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) >= 0x80) {
      return text.toLowerCase().toUpperCase().toLowerCase().normalize('NFC');
    }
  }
  return text.toLowerCase();
}

function newField() {
  return { tags: [], keys: new Map(), draft: '', version: 1 };
}

function admit(field, piece, outcome) {
  const candidate = piece.trim();
  if (candidate === '') {
    outcome.dropped.push({ text: '', reason: 'empty' });
    return;
  }
  const key = keyOf(candidate);
  const existing = field.keys.get(key);
  if (existing !== undefined) {
    outcome.dropped.push({ text: candidate, reason: 'duplicate', duplicateOf: existing });
    return;
  }
  field.keys.set(key, field.tags.length);
  field.tags.push(candidate);
  outcome.added.push(candidate);
}

// The rule: every piece before the last separator is a candidate; the rest, less its leading
// spaces, is the draft. A CRLF counts once.
function change(field, text, outcome) {
  let start = 0;
  let found = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isSeparator(code)) continue;
    admit(field, text.slice(start, i), outcome);
    if (code === 13 && text.charCodeAt(i + 1) === 10) i++;
    start = i + 1;
    found = true;
  }
  if (!found) {
    field.draft = text;
    return;
  }
  while (text.charCodeAt(start) === 32) start++;
  field.draft = text.slice(start);
}

function list(items) {
  if (items.length === 1) return items[0];
  if (items.length <= 5) return items.slice(0, -1).join(', ') + ' and ' + items[items.length - 1];
  return items.length + ' tags';
}

function announcement(outcome, tags) {
  const sentences = [];
  if (outcome.added.length > 0) sentences.push('Added ' + list(outcome.added) + '.');
  for (const drop of outcome.dropped) {
    if (drop.reason !== 'duplicate') continue;
    const existing = tags[drop.duplicateOf];
    sentences.push(
      existing === drop.text
        ? drop.text + ' is already a tag.'
        : drop.text + ' is already a tag, as ' + existing + '.'
    );
  }
  return sentences.length > 0 ? sentences.join(' ') : undefined;
}

function state(name, field, outcome) {
  const result = {
    field: name,
    version: field.version,
    prompt,
    tags: field.tags,
    text: field.draft,
    outcome,
  };
  // Protocol 1.2: present when true (every change to tags or draft is an undo step).
  if (field.canUndo) result.canUndo = true;
  const spoken = announcement(outcome, field.tags);
  if (spoken !== undefined) result.announcement = spoken;
  return result;
}

function emptyOutcome() {
  return { added: [], removed: [], dropped: [] };
}

class RpcError {
  constructor(code, message) {
    this.code = code;
    this.message = message;
  }
}

function session(params) {
  const field = fields.get(params.field);
  if (field === undefined) throw new RpcError(-32001, 'no field "' + params.field + '"');
  return field;
}

function handle(method, params) {
  switch (method) {
    case 'initialize':
      return { serverInfo: { name: 'field-peer', version: '1.0.0' }, capabilities: {} };
    case 'field/open': {
      const field = newField();
      fields.set(params.field, field);
      const outcome = emptyOutcome();
      for (const tag of params.tags || []) admit(field, tag, outcome);
      if (params.text !== undefined) change(field, params.text, outcome);
      return state(params.field, field, outcome);
    }
    case 'field/change': {
      const field = session(params);
      const outcome = emptyOutcome();
      const draft = field.draft;
      change(field, params.text, outcome);
      // The version counts changes of the state: the same text again leaves it.
      if (outcome.added.length > 0 || field.draft !== draft) {
        field.version++;
        field.canUndo = true;
      }
      return state(params.field, field, outcome);
    }
    case 'field/state':
      return state(params.field, session(params), emptyOutcome());
    case 'field/close':
      session(params);
      fields.delete(params.field);
      return null;
    case 'shutdown':
      return null;
    default:
      throw new RpcError(-32601, 'unknown method ' + method);
  }
}

function reply(message) {
  const body = Buffer.from(JSON.stringify(message));
  return 'Content-Length: ' + body.length + '\r\n\r\n' + body.toString();
}

let pending = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
  let out = '';
  let cursor = 0;
  for (;;) {
    const headerEnd = pending.indexOf('\r\n\r\n', cursor);
    if (headerEnd < 0) break;
    const header = pending.toString('latin1', cursor, headerEnd);
    const match = /Content-Length: *(\d+)/i.exec(header);
    if (match === null) process.exit(2);
    const start = headerEnd + 4;
    const end = start + Number(match[1]);
    if (end > pending.length) break;
    cursor = end;
    let message;
    try {
      message = JSON.parse(pending.toString('utf8', start, end));
    } catch (e) {
      out += reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
      continue;
    }
    if (message.method === 'exit') process.exit(0);
    let result;
    let error;
    try {
      result = handle(message.method, message.params || {});
    } catch (e) {
      if (!(e instanceof RpcError)) throw e;
      error = { code: e.code, message: e.message };
    }
    if (message.id === undefined) continue;
    out += reply(
      error === undefined
        ? { jsonrpc: '2.0', id: message.id, result }
        : { jsonrpc: '2.0', id: message.id, error }
    );
  }
  pending = pending.subarray(cursor);
  if (out.length > 0) process.stdout.write(out);
});
process.stdin.on('end', () => process.exit(0));
