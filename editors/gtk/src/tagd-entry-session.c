/* tagd-entry-session.c: what the entry's field session (a TagdSession) carries. Positions,
 * requests with the text they were made at (so that, held over a restart, they go out again
 * between the right text changes), field/open with every option, the sync path
 * (field/didChange out, field/didUpdate in, Protocol/sync.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-entry-private.h"
#include "tagd-enums.h"

/* ---- positions: character offsets <-> {line, character} (utf-32, lines split at CR, LF, CRLF) */

static GVariant *
position_at (const char *text, glong offset)
{
  glong line = 0, character = 0;
  const char *p = text;

  for (glong i = 0; i < offset && *p; i++)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);
      if (c == '\n' || (c == '\r' && *next != '\n'))
        {
          line++;
          character = 0;
        }
      else
        character++; /* a CR of a CRLF stays on its line until the LF */
      p = next;
    }
  return g_variant_new_parsed ("{'line': <%x>, 'character': <%x>}", (gint64) line, (gint64) character);
}

static glong
offset_of (const char *text, gint64 line, gint64 character)
{
  glong offset = 0;
  const char *p = text;

  while (line > 0 && *p)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);
      offset++;
      if (c == '\n' || (c == '\r' && *next != '\n'))
        line--;
      p = next;
    }
  return offset + (glong) character;
}

static GVariant *
range_variant (const char *text, glong start, glong end)
{
  return g_variant_new_parsed ("{'start': %v, 'end': %v}",
                               position_at (text, start), position_at (text, end));
}

/* ---- requests */

static void
op_free (gpointer data)
{
  Op *op = data;
  g_clear_object (&op->chip);
  g_free (op->text);
  g_free (op);
}

void
_tagd_entry_request (TagdEntry *self, const char *method, GVariant *extra, guint flags, TagdChip *chip)
{
  Op *op = g_new0 (Op, 1);

  op->chip = chip != NULL ? g_object_ref (chip) : NULL;
  op->text = g_strdup (self->mirror->str);
  op->version = self->version;
  op->announced = self->announcements;
  if (_tagd_session_request (self->session, method, extra, flags, op, op_free) && (flags & OP_SELECT))
    self->select_pending++;
}

static void
session_answered (TagdSession *session, const TagdRequest *request, GVariant *result, const GError *error,
                  gboolean current, TagdEntry *self)
{
  Op *op = request->data;

  if (request->flags & OP_SELECT)
    self->select_pending--;
  if (op->chip != NULL && op->chip->removing)
    {
      /* Answered: tagd's tags now decide. If the chip is still a child, its tag is still
       * there (the removal failed), so it shows again. */
      op->chip->removing = FALSE;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  if (error != NULL && (request->flags & OP_REMOVE) && g_error_matches (error, TAGD_ERROR, TAGD_ERROR_INVALID_PARAMS))
    /* The tag was already gone (× clicked twice, or Delete pressed twice before the reply). */
    g_debug ("tagd: field/removeTag: %s", error->message);
  else if (error != NULL)
    _tagd_report_error (request->method, error);
  else if (current && result != NULL)
    {
      gint64 version = (gint64) _tagd_variant_number (result, "version", 0);

      /* A request that changed nothing (a tag refused, "Nothing to undo.") leaves the state's
       * version where it was, so its outcome is not news to _tagd_entry_apply_state: it is
       * announced from the reply unless a field/didUpdate for it already was (tagd pushes
       * those before the reply). */
      if (version <= self->state_version && self->announcements == op->announced)
        _tagd_entry_apply_outcome (self, result);
      _tagd_entry_apply_state (self, result, "version", TRUE);
    }
}

static void
session_opened (TagdSession *session, GVariant *result, TagdEntry *self)
{
  _tagd_entry_apply_state (self, result, "version", FALSE);
}

static void
send_change_at (TagdEntry *self, GVariant *changes, gint64 version, gint64 applied)
{
  GVariantBuilder b;

  /* Until field/open is sent in the running tagd, the open carries the text. */
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int64 (version));
  if (applied >= 0)
    g_variant_builder_add (&b, "{sv}", "applied", g_variant_new_int64 (applied));
  g_variant_builder_add (&b, "{sv}", "contentChanges", changes);
  _tagd_session_notify (self->session, "field/didChange", g_variant_builder_end (&b));
}

static void
send_change (TagdEntry *self, GVariant *changes, gint64 applied)
{
  send_change_at (self, changes, self->version, applied);
}

/* One ranged change turning @from into @to (their common start and end kept). */
static void
send_difference (TagdEntry *self, const char *from, const char *to, gint64 version)
{
  glong nf = g_utf8_strlen (from, -1), nt = g_utf8_strlen (to, -1), pre = 0, suf = 0;
  const char *a = from, *b = to;
  g_autofree char *middle = NULL;

  while (pre < nf && pre < nt && g_utf8_get_char (a) == g_utf8_get_char (b))
    {
      a = g_utf8_next_char (a);
      b = g_utf8_next_char (b);
      pre++;
    }
  while (suf < nf - pre && suf < nt - pre &&
         g_utf8_get_char (g_utf8_offset_to_pointer (from, nf - suf - 1)) ==
         g_utf8_get_char (g_utf8_offset_to_pointer (to, nt - suf - 1)))
    suf++;
  middle = g_utf8_substring (to, pre, nt - suf);
  send_change_at (self,
                  g_variant_new_parsed ("[{'range': %v, 'text': <%s>}]",
                                        range_variant (from, pre, nf - suf), middle),
                  version, -1);
}

GVariant *
_tagd_entry_strv_variant (char **v)
{
  const char *empty[] = { NULL };
  return g_variant_new_strv (v != NULL ? (const char * const *) v : empty, -1);
}

/* field/open: the widget's tags, options and text; with requests held over a restart, the text
 * as it was when the first of them was made (the changes since go out between them). */
static GVariant *
session_open_params (TagdSession *session, const TagdRequest *first, TagdEntry *self)
{
  GVariantBuilder b;
  const char *text = self->mirror->str;
  gint64 version = self->version;

  self->state_version = 0;
  if (first != NULL)
    {
      Op *op = first->data;
      text = op->text;
      version = op->version;
    }
  /* The session opens with the tags alone and an empty text, and the text follows as the
   * first change (open-sent): what that text commits (a separator typed while tagd restarted)
   * is then announced as what it added, not as every tag the open carried ("Added 13
   * tags." for one). A non-empty buffer has been changed at least once: its version is >= 1. */
  g_free (self->open_text);
  self->open_text = text[0] != '\0' ? g_strdup (text) : NULL;
  self->open_version = version;
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "tags", _tagd_entry_strv_variant (self->tags));
  g_variant_builder_add (&b, "{sv}", "text", g_variant_new_string (""));
  g_variant_builder_add (&b, "{sv}", "options", _tagd_entry_options (self));
  g_variant_builder_add (&b, "{sv}", "sync",
                         g_variant_new_parsed ("{'version': <%x>}", self->open_text != NULL ? version - 1 : version));
  return g_variant_builder_end (&b);
}

/* The open is out: the text it starts from, before any held request. */
static void
session_open_sent (TagdSession *session, const TagdRequest *first, TagdEntry *self)
{
  g_autofree char *text = g_steal_pointer (&self->open_text);

  if (text != NULL)
    send_difference (self, "", text, self->open_version);
}

/* A held request went out again: then the text changes made between it and the next one. */
static void
session_resent (TagdSession *session, const TagdRequest *request, const TagdRequest *next, TagdEntry *self)
{
  const Op *op = request->data, *next_op = next != NULL ? next->data : NULL;
  const char *next_text = next_op != NULL ? next_op->text : self->mirror->str;

  if (!g_str_equal (op->text, next_text))
    send_difference (self, op->text, next_text, next_op != NULL ? next_op->version : self->version);
}

static void
session_held_sent (TagdSession *session, TagdEntry *self)
{
  _tagd_entry_send_selection (self);
  /* The new session knows nothing of earlier layouts. */
  self->layout_width = -1;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
handle_update (TagdEntry *self, GVariant *params)
{
  gint64 version = (gint64) _tagd_variant_number (params, "version", -1);
  gboolean resync = FALSE;

  g_variant_lookup (params, "resync", "b", &resync);
  if (resync)
    {
      /* tagd's copy of the buffer diverged: send the whole text. */
      self->version++;
      send_change (self, g_variant_new_parsed ("[{'text': <%s>}]", self->mirror->str), -1);
      _tagd_entry_apply_state (self, params, "stateVersion", FALSE);
      return;
    }

  if (version == self->version)
    {
      g_autoptr (GVariant) edits = _tagd_variant_lookup (params, "edits");
      gsize n = edits ? g_variant_n_children (edits) : 0;
      gboolean inserted = FALSE;

      if (n > 0)
        {
          GVariantBuilder changes;
          GVariantIter iter;
          GVariant *item;

          g_variant_builder_init (&changes, G_VARIANT_TYPE ("aa{sv}"));
          self->applying = TRUE;
          g_variant_iter_init (&iter, edits);
          /* Listed from last to first: each applies to the text the previous one left. */
          while ((item = g_variant_iter_next_value (&iter)))
            {
              g_autoptr (GVariant) e = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
              g_autoptr (GVariant) range = _tagd_variant_lookup (e, "range");
              g_autoptr (GVariant) start = _tagd_variant_lookup (range, "start");
              g_autoptr (GVariant) end = _tagd_variant_lookup (range, "end");
              const char *new_text = "";
              glong s = offset_of (self->mirror->str, (gint64) _tagd_variant_number (start, "line", 0),
                                   (gint64) _tagd_variant_number (start, "character", 0));
              glong t = offset_of (self->mirror->str, (gint64) _tagd_variant_number (end, "line", 0),
                                   (gint64) _tagd_variant_number (end, "character", 0));
              GVariantBuilder change;

              g_variant_lookup (e, "newText", "&s", &new_text);
              g_variant_builder_init (&change, G_VARIANT_TYPE_VARDICT);
              g_variant_builder_add (&change, "{sv}", "range", range_variant (self->mirror->str, s, t));
              g_variant_builder_add (&change, "{sv}", "text", g_variant_new_string (new_text));
              g_variant_builder_add_value (&changes, g_variant_builder_end (&change));
              if (t > s)
                {
                  const char *a = g_utf8_offset_to_pointer (self->mirror->str, s);
                  const char *z = g_utf8_offset_to_pointer (self->mirror->str, t);
                  g_string_erase (self->mirror, a - self->mirror->str, z - a);
                  gtk_entry_buffer_delete_text (self->buffer, (guint) s, (int) (t - s));
                }
              if (new_text[0] != '\0')
                {
                  const char *a = g_utf8_offset_to_pointer (self->mirror->str, s);
                  g_string_insert (self->mirror, a - self->mirror->str, new_text);
                  gtk_entry_buffer_insert_text (self->buffer, (guint) s, new_text, -1);
                  inserted = TRUE;
                }
              g_variant_unref (item);
            }
          self->applying = FALSE;
          self->version++;
          send_change (self, g_variant_builder_end (&changes), version);
          /* Text tagd put into the draft (an edited or undone tag) is edited at its end. */
          if (inserted && gtk_widget_has_focus (self->text))
            gtk_editable_set_position (GTK_EDITABLE (self->text), -1);
          _tagd_entry_schedule_suggest (self);
        }
    }
  /* Edits for an older buffer are ignored: tagd answers the newer change with a fresh update.
   * Tags and outcome are taken either way. */
  _tagd_entry_apply_state (self, params, "stateVersion", TRUE);
}

static void
session_did_update (TagdSession *session, const char *method, GVariant *params, TagdEntry *self)
{
  handle_update (self, params);
}

/* The entry's field session, its handlers connected. */
TagdSession *
_tagd_entry_session_new (TagdEntry *self)
{
  TagdSession *session = _tagd_session_new ("field", "entry");

  g_signal_connect (session, "open-params", G_CALLBACK (session_open_params), self);
  g_signal_connect (session, "open-sent", G_CALLBACK (session_open_sent), self);
  g_signal_connect (session, "resent", G_CALLBACK (session_resent), self);
  g_signal_connect (session, "held-sent", G_CALLBACK (session_held_sent), self);
  g_signal_connect (session, "opened", G_CALLBACK (session_opened), self);
  g_signal_connect (session, "answered", G_CALLBACK (session_answered), self);
  g_signal_connect (session, "notification::field/didUpdate", G_CALLBACK (session_did_update), self);
  return session;
}

/* ---- the text's buffer: every change is reported in order */

void
_tagd_entry_on_inserted_text (GtkEntryBuffer *buffer, guint position, const char *chars, guint n_chars, TagdEntry *self)
{
  const char *at;
  g_autofree char *inserted = NULL;

  if (self->applying)
    return;
  inserted = g_utf8_substring (chars, 0, n_chars);
  self->version++;
  send_change (self,
               g_variant_new_parsed ("[{'range': %v, 'text': <%s>}]",
                                     range_variant (self->mirror->str, position, position), inserted),
               -1);
  at = g_utf8_offset_to_pointer (self->mirror->str, position);
  g_string_insert (self->mirror, at - self->mirror->str, inserted);
  _tagd_entry_clear_refusal (self);
  _tagd_entry_schedule_suggest (self);
}

void
_tagd_entry_on_deleted_text (GtkEntryBuffer *buffer, guint position, guint n_chars, TagdEntry *self)
{
  glong len = g_utf8_strlen (self->mirror->str, -1);
  glong end;
  const char *a, *z;

  if (self->applying)
    return;
  end = (n_chars == G_MAXUINT || (glong) (position + n_chars) > len) ? len : (glong) (position + n_chars);
  if ((glong) position >= end)
    return;
  self->version++;
  send_change (self,
               g_variant_new_parsed ("[{'range': %v, 'text': <''>}]",
                                     range_variant (self->mirror->str, position, end)),
               -1);
  a = g_utf8_offset_to_pointer (self->mirror->str, position);
  z = g_utf8_offset_to_pointer (self->mirror->str, end);
  g_string_erase (self->mirror, a - self->mirror->str, z - a);
  _tagd_entry_clear_refusal (self);
  _tagd_entry_schedule_suggest (self);
}
