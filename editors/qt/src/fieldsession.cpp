// SPDX-License-Identifier: MIT
//
// The host owns its text and reports every change of it to tagd as a field/didChange, the way
// an editor reports its buffer (Protocol/sync.md). tagd answers when it likes with
// field/didUpdate: the tags, and edits that turn the text into the draft, stamped with the
// buffer version they were computed for. The edits are applied only if the buffer is still at
// that version, so a key typed while a reply is in flight is never lost and never becomes a tag
// twice. Requests (Return, chip keys, undo) are answered in order; while one is in flight,
// further keys are held and replayed once it is answered, so they act on what a slow typist
// would see.

#include "fieldsession_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusVariant>
#include <QtGui/QAccessible>
#include <QtGui/QFontMetricsF>
#include <QtGui/QKeyEvent>
#include <QtGui/QKeySequence>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

namespace {

// ---- positions: UTF-16 offsets <-> LSP {line, character}; CR, LF and CRLF end a line.

QJsonObject positionAt(const QString &text, int offset)
{
    int line = 0, character = 0;
    for (int i = 0; i < offset && i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c == u'\n' || (c == u'\r' && (i + 1 >= text.size() || text.at(i + 1) != u'\n'))) {
            ++line;
            character = 0;
        } else {
            ++character;
        }
    }
    return {{u"line"_s, line}, {u"character"_s, character}};
}

int offsetOf(const QString &text, const QJsonObject &position)
{
    int line = position.value(u"line"_s).toInt();
    const int character = position.value(u"character"_s).toInt();
    int i = 0;
    while (line > 0 && i < text.size()) {
        const QChar c = text.at(i++);
        if (c == u'\n' || (c == u'\r' && (i >= text.size() || text.at(i) != u'\n')))
            --line;
    }
    return std::clamp(i + character, 0, int(text.size()));
}

QJsonObject rangeOf(const QString &text, int start, int end)
{
    return {{u"start"_s, positionAt(text, start)}, {u"end"_s, positionAt(text, end)}};
}

QStringList stringsOf(const QJsonValue &array)
{
    QStringList out;
    for (const QJsonValue &v : array.toArray())
        out << v.toString();
    return out;
}

int reasonOf(const QString &reason)
{
    static const QHash<QString, int> reasons{
        {u"empty"_s, FieldSession::Empty},        {u"duplicate"_s, FieldSession::Duplicate},
        {u"tooLong"_s, FieldSession::TooLong},    {u"tooMany"_s, FieldSession::TooMany},
        {u"pattern"_s, FieldSession::Pattern},    {u"notAllowed"_s, FieldSession::NotAllowed},
        {u"denied"_s, FieldSession::Denied},
    };
    return reasons.value(reason, FieldSession::Other);
}

} // namespace

FieldSession::FieldSession(Text *text, QObject *parent)
    : QObject(parent)
    , m_text(text)
    , m_rpc(Rpc::instance())
{
    m_field = m_rpc->addSession(u"entry"_s, this);
    m_openQueued = true;
    // No restart is coming: what waited for one is let go, and the keys behind it are typed.
    connect(m_rpc, &Rpc::gaveUp, this, [this] {
        m_resend.clear();
        m_busy = 0;
        replayHeldKeys();
    });
    // Opened on the next turn of the event loop, once the host has set its options.
    QTimer::singleShot(0, this, [this] { ensureOpen(); });
}

FieldSession::~FieldSession()
{
    qDeleteAll(m_held);
    m_rpc->removeSession(m_field);
    if (m_opened)
        m_rpc->call(u"field/close"_s, fieldParams(), m_rpc, [](const QJsonValue &, const RpcError &) {});
}

double FieldSession::chipPadding(const QFont &font) { return std::round(QFontMetricsF(font).height() * 0.6); }
double FieldSession::chipButtonSize(const QFont &font) { return std::ceil(QFontMetricsF(font).height()); }

QSizeF FieldSession::chipSize(const QFont &font, const QString &tag)
{
    const QFontMetricsF fm(font);
    const double pad = chipPadding(font), button = chipButtonSize(font);
    return {std::ceil(pad + fm.horizontalAdvance(tag) + pad / 2 + button + pad / 2),
            std::ceil(std::max(fm.height() + pad, button + 4))};
}

QJsonObject FieldSession::openOptions() const
{
    const Options &o = options;
    QJsonObject j;
    if (!o.prompt.isEmpty())
        j.insert(u"prompt"_s, o.prompt);
    if (!o.separators.isEmpty())
        j.insert(u"separators"_s, QJsonArray::fromStringList(o.separators));
    if (o.maxTags >= 0)
        j.insert(u"maxTags"_s, o.maxTags);
    if (o.maxTagLength >= 1)
        j.insert(u"maxTagLength"_s, o.maxTagLength);
    if (o.caseSensitive)
        j.insert(u"caseSensitive"_s, true);
    if (o.transform != 0)
        j.insert(u"transform"_s, o.transform == 1 ? u"lowercase"_s : u"uppercase"_s);
    if (!o.pattern.isEmpty())
        j.insert(u"pattern"_s, o.pattern);
    if (o.allowList)
        j.insert(u"allow"_s, QJsonArray::fromStringList(o.allowed));
    if (!o.denied.isEmpty())
        j.insert(u"deny"_s, QJsonArray::fromStringList(o.denied));
    if (!o.suggestions.isEmpty())
        j.insert(u"suggestions"_s, QJsonArray::fromStringList(o.suggestions));
    if (!o.vault.isEmpty())
        j.insert(u"suggestFromVault"_s, true);
    if (o.backspace != 0)
        j.insert(u"backspace"_s, o.backspace == 1 ? u"select"_s : u"edit"_s);
    if (o.commitOnBlur)
        j.insert(u"commitOnBlur"_s, true);
    if (o.history != 100)
        j.insert(u"history"_s, o.history);
    return j;
}

// A live field takes new options with field/setOptions: tags that break a stricter rule are
// kept and flagged (FieldState's `flagged`), and tagd says so. A tagd without that method gets
// the old way: the field is re-opened, and the new rules apply to the tags it carries.
void FieldSession::optionChanged()
{
    if (!m_opened)
        return;
    if (m_rpc->supports(u"field/setOptions"_s) && !m_openQueued)
        request(u"field/setOptions"_s, {{u"field"_s, m_field}, {u"options"_s, openOptions()}});
    else
        reopen(true);
}

void FieldSession::setTags(const QStringList &tags)
{
    m_openTags = tags;
    if (m_opened)
        reopen(true);
}

void FieldSession::setSuggestions(const QStringList &suggestions)
{
    options.suggestions = suggestions;
    if (m_opened && !m_openQueued)
        m_rpc->call(u"field/setSuggestions"_s,
                    {{u"field"_s, m_field}, {u"suggestions"_s, QJsonArray::fromStringList(suggestions)}}, this,
                    [](const QJsonValue &, const RpcError &) {});
}

void FieldSession::setVault(const QString &folder)
{
    m_rpc->addVault(folder);
    options.vault = folder;
    optionChanged();
}

void FieldSession::ensureOpen()
{
    if (m_openQueued)
        sendOpen(false);
}

void FieldSession::sendOpen(bool keepTags)
{
    m_openQueued = false;
    m_opened = true;
    m_openPending = true;
    m_stateVersion = 0;
    m_lastUpdateVersion = -1;
    const QString id = m_field;
    // The session opens with the tags and an empty text; the text follows as an ordinary change.
    // So what the user typed while tagd was down (a re-open) is announced as typing ("Added one
    // pot."), not as part of the open, whose outcome lists every tag and is not announced.
    QJsonObject params{{u"field"_s, m_field},
                       {u"tags"_s, QJsonArray::fromStringList(m_openTags)},
                       {u"text"_s, QString()},
                       {u"options"_s, keepTags ? QJsonObject() : openOptions()},
                       {u"sync"_s, QJsonObject{{u"version"_s, m_version}}}};
    m_rpc->call(u"field/open"_s, params, this, [this, id](const QJsonValue &result, const RpcError &error) {
        if (error.restarted || id != m_field)
            return;
        m_openPending = false;
        if (error.isError()) {
            qWarning("tagd: field/open failed: %s (%d)", qPrintable(error.message), error.code);
            return;
        }
        // The open's outcome reports the initial tags: shown, not announced.
        applyState(result.toObject(), result.toObject().value(u"version"_s).toInt(), false, false);
    });
    if (keepTags) {
        // Re-opened after a restart: the tags shown are opened as they are, and the options
        // follow with field/setOptions, so a tag a rule would refuse is kept (flagged), as it
        // was before the restart. Not announced: nothing changed for the user.
        m_rpc->call(u"field/setOptions"_s, {{u"field"_s, m_field}, {u"options"_s, openOptions()}}, this,
                    [this, id](const QJsonValue &result, const RpcError &error) {
                        if (error.isError() || id != m_field)
                            return;
                        applyState(result.toObject(), result.toObject().value(u"version"_s).toInt(), false, false);
                    });
    }
    if (!m_mirror.isEmpty()) {
        ++m_version;
        sendChanges(QJsonArray{QJsonObject{{u"text"_s, m_mirror}}}, -1);
    }
    if (m_openTags == tags)
        Q_EMIT layoutNeeded();
}

void FieldSession::reopen(bool closeOld, bool keepTags)
{
    if (closeOld && m_opened)
        m_rpc->call(u"field/close"_s, fieldParams(), this, [](const QJsonValue &, const RpcError &) {});
    m_field = m_rpc->renameSession(m_field, u"entry"_s);
    // Requests of the old session are answered (or dropped) without touching this one.
    m_busy = 0;
    if (!m_openQueued)
        sendOpen(keepTags);
    // What tagd's death cut off goes to the new session first: a Return pressed before the death
    // commits the text it was pressed on, and the keys typed after it wait for its answer.
    for (auto &[method, params] : std::exchange(m_resend, {})) {
        params.insert(u"field"_s, m_field);
        request(method, params);
    }
    replayHeldKeys();
}

void FieldSession::request(const QString &method, QJsonObject params, std::function<void(const QJsonObject &)> then)
{
    ensureOpen();
    ++m_busy;
    if (m_rpc->isRestarting()) {
        m_resend.append({method, params});
        return;
    }
    const QString id = m_field;
    m_rpc->call(method, params, this, [this, id, method, params, then](const QJsonValue &result, const RpcError &error) {
        if (id != m_field)
            return; // an old session's answer (re-opened since): busy was reset then
        if (error.restarted && m_rpc->isRestarting()) {
            m_resend.append({method, params}); // still busy: the keys behind it stay held
            return;
        }
        m_busy = std::max(0, m_busy - 1);
        if (!error.isError()) {
            const QJsonObject state = result.toObject();
            applyState(state, state.value(u"version"_s).toInt(), false);
            if (then)
                then(state);
        } else if (!error.restarted && !(method == u"field/removeTag"_s && error.code == -32602)) {
            // A refusal is a bug in this front end; a removal of a tag already gone is not.
            qWarning("tagd: %s failed: %s (%d)", qPrintable(method), qPrintable(error.message), error.code);
        }
        Q_EMIT answered();
        replayHeldKeys();
    });
}

void FieldSession::select(int index)
{
    request(u"field/select"_s, {{u"field"_s, m_field}, {u"index"_s, index >= 0 ? QJsonValue(index) : QJsonValue()}});
}
void FieldSession::removeTag(const QString &tag) { request(u"field/removeTag"_s, {{u"field"_s, m_field}, {u"tag"_s, tag}}); }
void FieldSession::removeTagAt(int index) { request(u"field/removeTag"_s, {{u"field"_s, m_field}, {u"index"_s, index}}); }
void FieldSession::replaceTag(int index, const QString &text)
{
    request(u"field/replaceTag"_s, {{u"field"_s, m_field}, {u"index"_s, index}, {u"text"_s, text}});
}
void FieldSession::addTags(const QStringList &tags)
{
    request(u"field/addTags"_s, {{u"field"_s, m_field}, {u"tags"_s, QJsonArray::fromStringList(tags)}});
}
void FieldSession::blur()
{
    if (m_opened)
        request(u"field/blur"_s, fieldParams());
}

void FieldSession::takeSuggestion(const QString &chosen)
{
    // As if typed, then Return: one path for every rule, and tagd's undo history sees what the
    // user saw.
    m_text->setText(chosen, int(chosen.size()));
    request(u"field/submit"_s, fieldParams());
}

// Takes what tagd says if it is newer than what is shown. An update (field/didUpdate) is written
// before the answer of the request that caused it, with the same state version; an answer that
// changed nothing (a duplicate from addTags, undo with nothing to undo) has no update, so its
// outcome is taken from the answer.
void FieldSession::applyState(const QJsonObject &state, int v, bool fromUpdate, bool announceIt)
{
    const QString sentence = announceIt ? state.value(u"announcement"_s).toString() : QString();
    if (v <= m_stateVersion) {
        if (!fromUpdate && v == m_stateVersion && !sentence.isEmpty()
            && !(m_lastUpdateVersion == v && m_lastUpdateAnnouncement == sentence)) {
            applyOutcome(state);
            announce(sentence);
            m_lastUpdateVersion = v;
            m_lastUpdateAnnouncement = sentence;
            // A refusal that changed nothing (a chip's replacement refused): shown all the same.
            if (!state.value(u"outcome"_s).toObject().value(u"dropped"_s).toArray().isEmpty())
                setRefusal(sentence);
        }
        return;
    }
    m_stateVersion = v;
    if (fromUpdate || !sentence.isEmpty()) {
        m_lastUpdateVersion = v;
        m_lastUpdateAnnouncement = sentence;
    }
    const QStringList newTags = stringsOf(state.value(u"tags"_s));
    const int newSelected = state.contains(u"selected"_s) ? state.value(u"selected"_s).toInt(-1) : -1;
    const bool undo = state.value(u"canUndo"_s).toBool(), redo = state.value(u"canRedo"_s).toBool();
    const QString newDraft = state.value(u"text"_s).toString();
    const QString newPrompt = state.value(u"prompt"_s).toString();
    if (!newPrompt.isEmpty() && newPrompt != tagdPrompt) {
        tagdPrompt = newPrompt;
        Q_EMIT promptChanged();
    }
    const bool tagsDiffer = newTags != tags;
    if (tagsDiffer) {
        tags = newTags;
        m_openTags = newTags; // a re-open (tagd restarted, an option changed) carries what is shown
        Q_EMIT tagsReplaced();
    }
    if (newSelected != selected) {
        selected = newSelected;
        Q_EMIT selectedChanged();
    }
    if (undo != canUndo || redo != canRedo) {
        canUndo = undo;
        canRedo = redo;
        Q_EMIT undoStateChanged();
    }
    QStringList newFlagged;
    for (const QJsonValue &f : state.value(u"flagged"_s).toArray())
        newFlagged << f.toObject().value(u"tag"_s).toString();
    const bool flaggedDiffers = newFlagged != flagged;
    flagged = newFlagged;
    const bool draftDiffers = newDraft != draft;
    draft = newDraft;
    if (tagsDiffer)
        Q_EMIT tagsChanged();
    if (draftDiffers)
        Q_EMIT draftChanged();
    if (flaggedDiffers)
        Q_EMIT flaggedChanged();
    if (announceIt)
        applyOutcome(state);
    if (!sentence.isEmpty())
        announce(sentence);
    const QJsonObject outcome = state.value(u"outcome"_s).toObject();
    // A refused candidate, or tags kept although a stricter option breaks them: tagd's sentence
    // is shown under the field as well as announced.
    const bool dropped = announceIt && !outcome.value(u"dropped"_s).toArray().isEmpty();
    const bool refused = dropped || (announceIt && !outcome.value(u"flagged"_s).toArray().isEmpty());
    if (refused)
        setRefusal(sentence);
    else if (tagsDiffer)
        setRefusal(QString());
    if (draftDiffers || tagsDiffer)
        Q_EMIT contentChanged();
}

void FieldSession::setRefusal(const QString &sentence)
{
    if (refusal == sentence)
        return;
    refusal = sentence;
    Q_EMIT refusalChanged();
}

void FieldSession::applyOutcome(const QJsonObject &state)
{
    const QJsonArray dropped = state.value(u"outcome"_s).toObject().value(u"dropped"_s).toArray();
    for (const QJsonValue &v : dropped) {
        const QJsonObject d = v.toObject();
        const int reason = reasonOf(d.value(u"reason"_s).toString());
        const int index = reason == Duplicate ? d.value(u"duplicateOf"_s).toInt(-1) : -1;
        Q_EMIT this->dropped(d.value(u"text"_s).toString(), reason, index);
    }
}

// How a sentence reaches the screen reader. Qt 6.8 has an announcement event. Before it, the
// way Orca 43 speaks a sentence is an object:property-change:accessible-description event on
// its locus of focus carrying the sentence as its value (see ../shared/ORCA.md): the focused
// text here. Qt 6.4's AT-SPI bridge does send that event for setAccessibleDescription(), but
// with the object's reference as the value instead of the text, so Orca has nothing to say. So
// the signal is sent here as GTK and later Qt send it: on the bridge's own connection to the
// accessibility bus ("a11y"), from the text's object path, with the sentence as the value;
// then the same with "" on the next turn of the event loop, so that the same sentence twice is
// spoken twice and nothing is read again when focus comes back. The same holds for a Qt Quick
// item: its accessible interface has an id and a path on that bus like a widget's.
void FieldSession::announceToScreenReader(QObject *focused, const QString &sentence)
{
    if (!focused)
        return;
#if QT_VERSION >= QT_VERSION_CHECK(6, 8, 0)
    if (!sentence.isEmpty()) {
        QAccessibleAnnouncementEvent event(focused, sentence);
        QAccessible::updateAccessibility(&event);
    }
#else
    if (!QAccessible::isActive())
        return;
    QAccessibleInterface *iface = QAccessible::queryAccessibleInterface(focused);
    QDBusConnection bus(u"a11y"_s);
    if (!iface || !bus.isConnected())
        return;
    const QString path = u"/org/a11y/atspi/accessible/"_s + QString::number(QAccessible::uniqueId(iface));
    QDBusMessage signal = QDBusMessage::createSignal(path, u"org.a11y.atspi.Event.Object"_s, u"PropertyChange"_s);
    signal << u"accessible-description"_s << 0 << 0 << QVariant::fromValue(QDBusVariant(sentence)) << QVariantMap();
    bus.send(signal);
#endif
}

void FieldSession::announce(const QString &sentence)
{
    announcement = sentence;
    speak(sentence);
    Q_EMIT announced(sentence);
}

void FieldSession::speak(const QString &sentence)
{
    QObject *focused = m_text->accessibleObject();
    announceToScreenReader(focused, sentence);
#if QT_VERSION < QT_VERSION_CHECK(6, 8, 0)
    QTimer::singleShot(0, this, [t = QPointer<QObject>(focused)] {
        if (t)
            announceToScreenReader(t, QString());
    });
#endif
}

void FieldSession::tagdNotification(const QString &method, const QJsonObject &params)
{
    if (method == u"field/didUpdate"_s && params.value(u"field"_s).toString() == m_field)
        handleUpdate(params);
}

void FieldSession::handleUpdate(const QJsonObject &params)
{
    const qint64 at = params.value(u"version"_s).toInteger(-1);
    if (params.value(u"resync"_s).toBool()) {
        // tagd's copy of the buffer diverged: send the whole text.
        ++m_version;
        sendChanges(QJsonArray{QJsonObject{{u"text"_s, m_mirror}}}, -1);
    } else if (at == m_version) {
        const QJsonArray edits = params.value(u"edits"_s).toArray();
        if (!edits.isEmpty()) {
            QString t = m_mirror;
            int cursor = m_text->cursorPosition();
            QJsonArray changes;
            for (const QJsonValue &v : edits) { // listed last to first: apply in that order
                const QJsonObject e = v.toObject();
                const QJsonObject range = e.value(u"range"_s).toObject();
                const int s = offsetOf(t, range.value(u"start"_s).toObject());
                const int end = std::max(s, offsetOf(t, range.value(u"end"_s).toObject()));
                const QString insert = e.value(u"newText"_s).toString();
                changes.append(QJsonObject{{u"range"_s, rangeOf(t, s, end)}, {u"text"_s, insert}});
                t.replace(s, end - s, insert);
                if (cursor >= end)
                    cursor += int(insert.size()) - (end - s);
                else if (cursor > s)
                    cursor = s + int(insert.size());
            }
            m_applying = true;
            m_text->setText(t, cursor);
            m_applying = false;
            m_mirror = t;
            ++m_version;
            sendChanges(changes, at);
        }
    }
    // Edits for an older buffer are ignored (tagd answers the newer change with a fresh
    // update); the state is taken either way. An update before the open's answer is the open's
    // own (its initial tags, every one "added"): shown, not announced, as the answer itself.
    applyState(params, params.value(u"stateVersion"_s).toInt(), true, !m_openPending);
}

void FieldSession::sendChanges(const QJsonArray &changes, qint64 applied)
{
    if (!m_opened || m_openQueued)
        return; // the open carries the whole text at this version
    QJsonObject params{{u"field"_s, m_field}, {u"version"_s, m_version}, {u"contentChanges"_s, changes}};
    if (applied >= 0)
        params.insert(u"applied"_s, applied);
    m_rpc->notify(u"field/didChange"_s, params);
}

// One user change of the text (a key, a paste, a cut) is one contiguous replacement: the part
// before the cursor that is unchanged, and the part after it.
void FieldSession::textChanged()
{
    if (m_applying)
        return;
    const QString now = m_text->text();
    const QString old = m_mirror;
    if (now == old)
        return;
    const int cursor = m_text->cursorPosition();
    int suffix = 0;
    if (now.mid(cursor).size() <= old.size() && old.endsWith(now.mid(cursor)))
        suffix = int(now.size()) - cursor;
    else
        while (suffix < now.size() && suffix < old.size() && now.at(now.size() - 1 - suffix) == old.at(old.size() - 1 - suffix))
            ++suffix;
    int prefix = 0;
    const int maxPrefix = std::min(int(now.size()), int(old.size())) - suffix;
    while (prefix < maxPrefix && now.at(prefix) == old.at(prefix))
        ++prefix;
    const QString inserted = now.mid(prefix, now.size() - suffix - prefix);
    const QJsonObject change{{u"range"_s, rangeOf(old, prefix, int(old.size()) - suffix)}, {u"text"_s, inserted}};
    m_mirror = now;
    ++m_version;
    sendChanges(QJsonArray{change}, -1);
    setRefusal(QString()); // the user types again: the last refusal is old news
    // tagd sends no update for typing that commits nothing: the draft is then the text. An
    // update that follows (a separator was typed) corrects it.
    if (draft != now) {
        draft = now;
        Q_EMIT draftChanged();
    }
    Q_EMIT contentChanged();
}

// ---- keys (SPEC §6a)

bool FieldSession::filterKey(QKeyEvent *event)
{
    return !m_bypass && handleKey(event);
}

bool FieldSession::handleKey(QKeyEvent *e)
{
    if (m_busy > 0 || (!m_held.isEmpty() && !m_bypass)) {
        m_held.append(new QKeyEvent(e->type(), e->key(), e->modifiers(), e->nativeScanCode(), e->nativeVirtualKey(),
                                    e->nativeModifiers(), e->text(), e->isAutoRepeat(), e->count()));
        return true;
    }
    const Qt::KeyboardModifiers mods = e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier | Qt::MetaModifier);
    // Right to left, the chips are right of the text: the arrow that points at them selects them.
    int key = e->key();
    if (m_text->isRightToLeft() && (key == Qt::Key_Left || key == Qt::Key_Right))
        key = key == Qt::Key_Left ? Qt::Key_Right : Qt::Key_Left;
    const bool plain = mods == Qt::NoModifier || mods == Qt::KeypadModifier;
    const bool isReturn = key == Qt::Key_Return || key == Qt::Key_Enter;

    if (e->matches(QKeySequence::Undo)) {
        request(u"field/undo"_s, fieldParams());
        return true;
    }
    if (e->matches(QKeySequence::Redo) || (key == Qt::Key_Z && mods == (Qt::ControlModifier | Qt::ShiftModifier))) {
        request(u"field/redo"_s, fieldParams());
        return true;
    }
    if (m_text->suggestionKey(e))
        return true;
    if (selected >= 0 && selected < tags.size()) {
        const int n = int(tags.size());
        if (key == Qt::Key_Left && (plain || mods == Qt::AltModifier)) {
            if (mods == Qt::AltModifier) {
                if (selected > 0)
                    request(u"field/moveTag"_s, {{u"field"_s, m_field}, {u"from"_s, selected}, {u"to"_s, selected - 1}});
            } else if (selected > 0) {
                select(selected - 1);
            }
            return true;
        }
        if (key == Qt::Key_Right && (plain || mods == Qt::AltModifier)) {
            if (mods == Qt::AltModifier) {
                if (selected < n - 1)
                    request(u"field/moveTag"_s, {{u"field"_s, m_field}, {u"from"_s, selected}, {u"to"_s, selected + 1}});
            } else {
                select(selected + 1 < n ? selected + 1 : -1);
            }
            return true;
        }
        if ((isReturn || key == Qt::Key_F2) && plain) {
            Q_EMIT editRequested(selected);
            return true;
        }
        if (key == Qt::Key_Backspace && plain) {
            request(u"field/deleteBackward"_s, fieldParams());
            return true;
        }
        if (key == Qt::Key_Delete && plain) {
            removeTagAt(selected);
            return true;
        }
        if (key == Qt::Key_Escape || key == Qt::Key_End || key == Qt::Key_Home) {
            select(key == Qt::Key_Home ? 0 : -1);
            // Back in the text, typing goes where the user reads on: after the draft.
            if (key != Qt::Key_Home)
                m_text->setCursorPosition(int(m_text->text().size()));
            return true;
        }
    }
    if (isReturn && plain) {
        request(u"field/submit"_s, fieldParams());
        return true;
    }
    // "Empty" is decided when the key is handled (Protocol/sync.md rule 3).
    if (key == Qt::Key_Backspace && plain && m_text->text().isEmpty()) {
        request(u"field/deleteBackward"_s, fieldParams());
        return true;
    }
    if (key == Qt::Key_Left && plain && !tags.isEmpty() && m_text->cursorPosition() == 0 && !m_text->hasSelectedText()) {
        select(int(tags.size()) - 1);
        return true;
    }
    return false;
}

void FieldSession::replayHeldKeys()
{
    while (m_busy == 0 && !m_held.isEmpty()) {
        std::unique_ptr<QKeyEvent> e(m_held.takeFirst());
        m_bypass = true;
        const bool handled = handleKey(e.get());
        if (!handled)
            m_text->deliverKey(e.get());
        m_bypass = false;
    }
}

// ---- layout and suggestions

void FieldSession::layout(double width, const QList<QSizeF> &chipSizes, double fieldHeight, double fieldMinWidth,
                          QObject *context, Frames done)
{
    if (!m_opened)
        return;
    QJsonArray sizes;
    for (const QSizeF &s : chipSizes)
        sizes.append(QJsonObject{{u"width"_s, s.width()}, {u"height"_s, s.height()}});
    QJsonObject params{{u"field"_s, m_field},
                       {u"width"_s, width},
                       {u"chipSizes"_s, sizes},
                       {u"fieldHeight"_s, fieldHeight},
                       {u"spacing"_s, 6.0},
                       {u"fieldMinWidth"_s, std::min(fieldMinWidth, std::max(1.0, width))}};
    const int serial = ++m_layoutSerial;
    const QString id = m_field;
    const QStringList forTags = tags;
    m_rpc->call(u"field/layout"_s, params, context,
                [this, serial, id, forTags, done](const QJsonValue &result, const RpcError &error) {
                    if (serial != m_layoutSerial || id != m_field || forTags != tags)
                        return; // a newer request is on its way
                    if (error.isError()) {
                        if (!error.restarted)
                            qWarning("tagd: field/layout failed: %s", qPrintable(error.message));
                        return;
                    }
                    const QJsonObject r = result.toObject();
                    QList<QRectF> frames;
                    for (const QJsonValue &v : r.value(u"frames"_s).toArray()) {
                        const QJsonObject f = v.toObject();
                        frames << QRectF(f.value(u"x"_s).toDouble(), f.value(u"y"_s).toDouble(),
                                         f.value(u"width"_s).toDouble(), f.value(u"height"_s).toDouble());
                    }
                    done(frames, r.value(u"size"_s).toObject().value(u"height"_s).toDouble());
                });
}

void FieldSession::suggest(int limit, QObject *context, std::function<void(const QList<Suggestion> &)> done)
{
    const int serial = ++m_suggestSerial;
    const QString id = m_field;
    m_rpc->call(u"field/suggest"_s, {{u"field"_s, m_field}, {u"limit"_s, limit}}, context,
                [this, serial, id, done](const QJsonValue &result, const RpcError &error) {
                    if (serial != m_suggestSerial || id != m_field || error.isError())
                        return;
                    QList<Suggestion> out;
                    for (const QJsonValue &v : result.toObject().value(u"items"_s).toArray()) {
                        const QJsonObject item = v.toObject();
                        Suggestion s{item.value(u"text"_s).toString(), {}};
                        for (const QJsonValue &m : item.value(u"matches"_s).toArray())
                            s.matches.append({m.toObject().value(u"start"_s).toInt(), m.toObject().value(u"end"_s).toInt()});
                        out << s;
                    }
                    // The list never takes the focus: a screen reader hears of it through tagd's
                    // sentence (how many, the first), said when the list appears, changes or goes.
                    QStringList texts;
                    for (const Suggestion &s : out)
                        texts << s.text;
                    const QString said = result.toObject().value(u"announcement"_s).toString();
                    if (texts != m_suggested && !said.isEmpty())
                        speak(said);
                    m_suggested = texts;
                    done(out);
                });
}

} // namespace Tagd
