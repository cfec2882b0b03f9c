// SPDX-License-Identifier: MIT
// Internal, not installed: one tag field's session in tagd and the editor sync path
// (Protocol/sync.md), shared by the widget (Tagd::TagEdit) and the Qt Quick item (the Tagd 1.0
// QML module's TagEdit). The front end only owns a text and draws what tagd says.
#pragma once

#include "TagdQt/tagdqt_global.h"
#include "rpc_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QList>
#include <QtCore/QRectF>
#include <QtCore/QSizeF>
#include <QtGui/QFont>

class QKeyEvent;

namespace Tagd {

class TAGDQT_EXPORT FieldSession : public QObject, public Session
{
    Q_OBJECT
public:
    //! The text the user types into, as the session sees it.
    class Text
    {
    public:
        virtual ~Text() = default;
        virtual QString text() const = 0;
        virtual int cursorPosition() const = 0;
        virtual bool hasSelectedText() const = 0;
        //! Replaces the whole text and puts the cursor at \a cursor. The host reports the change
        //! with FieldSession::textChanged() as for typing (the session knows its own edits).
        virtual void setText(const QString &text, int cursor) = 0;
        virtual void setCursorPosition(int cursor) = 0;
        //! The chips are laid out right to left: Left and Right swap their roles.
        virtual bool isRightToLeft() const { return false; }
        //! A held key the session did not take: give it to the text as if typed now.
        virtual void deliverKey(QKeyEvent *event) = 0;
        //! The suggestion list's keys (Down, Up, Tab, Return, Escape), asked after undo/redo.
        virtual bool suggestionKey(QKeyEvent *) { return false; }
        //! The object the screen reader has as its focus when the text has it.
        virtual QObject *accessibleObject() const = 0;
    };

    //! Why a candidate was refused; the same order as TagEdit::DropReason.
    enum Reason { Empty, Duplicate, TooLong, TooMany, Pattern, NotAllowed, Denied, Other };

    //! Every option of field/open; transform and backspace as the TagEdit enums number them.
    struct Options
    {
        QString prompt;
        QStringList separators, allowed, denied, suggestions;
        bool allowList = false;
        int maxTags = -1, maxTagLength = -1, history = 100;
        bool caseSensitive = false, commitOnBlur = false;
        int transform = 0; // None, Lowercase, Uppercase
        int backspace = 0; // Remove, Select, Edit
        QString pattern;
        QString vault; //!< a folder of notes whose tags are suggested too (suggestFromVault)
    };

    FieldSession(Text *text, QObject *parent);
    ~FieldSession() override;

    // what tagd says
    QStringList tags;
    QString draft;
    int selected = -1;
    bool canUndo = false, canRedo = false;
    QString announcement;
    //! tagd's sentence for the last refused candidate, shown under the field until the user
    //! types again or the tags change; empty when nothing was refused.
    QString refusal;
    //! The tags that break the field's rules since a stricter option (tagd's `flagged`): kept,
    //! marked on their chips.
    QStringList flagged;
    QString tagdPrompt; //!< the prompt tagd reports (in the locale's language)
    QString prompt() const { return options.prompt.isEmpty() ? tagdPrompt : options.prompt; }

    Options options;
    //! An option changed: re-open with what is shown (tagd has no method to change options).
    void optionChanged();
    void setTags(const QStringList &tags);
    void setSuggestions(const QStringList &suggestions);
    //! Names the folder to tagd as a vault, then asks for suggestFromVault.
    void setVault(const QString &folder);

    //! A request that changes the field; keys wait while one is in flight.
    void request(const QString &method, QJsonObject params, std::function<void(const QJsonObject &)> then = {});
    QJsonObject fieldParams() const { return {{QStringLiteral("field"), m_field}}; }
    QString fieldId() const { return m_field; }
    bool isOpen() const { return m_opened; }
    void select(int index);
    void removeTag(const QString &tag);
    void removeTagAt(int index);
    //! Replaces the tag at \a index with \a text (a chip edited in place: field/replaceTag). A
    //! text tagd refuses leaves the tag as it was; the refusal is shown and said.
    void replaceTag(int index, const QString &text);
    void addTags(const QStringList &tags);
    void blur();
    //! The chosen suggestion replaces the draft as if typed and is submitted.
    void takeSuggestion(const QString &chosen);

    //! Give every key press of the text here first: true when the session took it.
    bool filterKey(QKeyEvent *event);
    //! The text changed (a key, a paste, or setText()).
    void textChanged();

    using Frames = std::function<void(const QList<QRectF> &frames, double height)>;
    //! field/layout: the frames of the chips and, last, of the text; \a done runs only when the
    //! answer is for the tags shown (a newer request is on its way otherwise).
    void layout(double width, const QList<QSizeF> &chipSizes, double fieldHeight, double fieldMinWidth,
                QObject *context, Frames done);

    struct Suggestion
    {
        QString text;
        QList<std::pair<int, int>> matches; // [start, end) of matched letters
    };
    //! field/suggest for the draft; \a done gets the items unless a newer ask was made.
    void suggest(int limit, QObject *context, std::function<void(const QList<Suggestion> &)> done);
    //! No list shown any more: the next one that appears is announced again.
    void cancelSuggest()
    {
        ++m_suggestSerial;
        m_suggested.clear();
    }

    // How a chip is measured, so both front ends send tagd the same sizes: padding, the label,
    // half a padding, the remove button (a square of the font's height), half a padding.
    static double chipPadding(const QFont &font);
    static double chipButtonSize(const QFont &font);
    static QSizeF chipSize(const QFont &font, const QString &tag);

    //! Says \a sentence to the screen reader as coming from \a focused (fieldsession.cpp says why so).
    static void announceToScreenReader(QObject *focused, const QString &sentence);

Q_SIGNALS:
    void promptChanged();
    //! The tag list is new: rebuild chips (before selectedChanged and tagsChanged).
    void tagsReplaced();
    void selectedChanged();
    void undoStateChanged();
    void tagsChanged();
    void draftChanged();
    void dropped(const QString &text, int reason, int index);
    void announced(const QString &sentence);
    void refusalChanged();
    //! Return or F2 on the selected chip: the front end edits chip \a index in place.
    void editRequested(int index);
    void flaggedChanged();
    //! The tags or the draft changed: the suggestion list is stale.
    void contentChanged();
    //! A request was answered (chips hidden while their removal was asked may show again).
    void answered();
    //! The session (re)opened: lay the chips out.
    void layoutNeeded();

private:
    void tagdNotification(const QString &method, const QJsonObject &params) override;
    //! tagd restarted: the tags shown are kept as they are (field/setOptions after the open).
    void tagdReopen() override { reopen(false, m_rpc->supports(QStringLiteral("field/setOptions"))); }
    QJsonObject openOptions() const;
    void ensureOpen();
    void sendOpen(bool keepTags);
    void reopen(bool closeOld, bool keepTags = false);
    void applyState(const QJsonObject &state, int version, bool fromUpdate, bool announceIt = true);
    void applyOutcome(const QJsonObject &state);
    void announce(const QString &sentence);
    //! Says \a sentence to the screen reader only (not an announcement of the field's state).
    void speak(const QString &sentence);
    void handleUpdate(const QJsonObject &params);
    void sendChanges(const QJsonArray &changes, qint64 applied);
    bool handleKey(QKeyEvent *event);
    void replayHeldKeys();
    void setRefusal(const QString &sentence);

    Text *const m_text;
    Rpc *const m_rpc;
    QStringList m_openTags; // the tags the next field/open carries
    int m_stateVersion = 0;
    int m_lastUpdateVersion = -1;
    QString m_lastUpdateAnnouncement;
    QString m_field;
    bool m_opened = false;
    bool m_openQueued = false;
    QString m_mirror;        // the buffer as last reported
    qint64 m_version = 0;    // the buffer's version
    bool m_applying = false; // applying tagd's edits: not the user's change
    int m_busy = 0;          // requests in flight: keys wait for them
    QList<QKeyEvent *> m_held;
    // Requests that tagd's death cut off (in flight, or made while it restarts): sent to the
    // re-opened session in order, before the keys held behind them.
    QList<std::pair<QString, QJsonObject>> m_resend;
    bool m_bypass = false;
    // The suggestions last shown: their sentence is said when the list changes.
    QStringList m_suggested;
    bool m_openPending = false; // updates before the open's answer are the open's own
    int m_layoutSerial = 0;
    int m_suggestSerial = 0;
};

} // namespace Tagd
