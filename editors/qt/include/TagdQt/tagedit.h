// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QStringList>
#include <QtWidgets/QWidget>

#include <memory>

#include "tagdqt_global.h"

namespace Tagd {

class TagEditPrivate;

/*!
 * A tag entry that looks like a QLineEdit: chips (a label and a remove button) and a text for
 * the draft, with every rule, message and position decided by tagd.
 *
 * Typing a separator (\c , and newline by default) or Return turns the draft into a tag; a
 * paste is split; Backspace on an empty draft acts as \c backspaceMode says; Left at the start
 * of the draft selects chips (Left/Right move the selection, Alt+Left/Alt+Right move the chip,
 * Return edits it, BackSpace/Delete remove it); Tab takes the best suggestion; Ctrl+Z and
 * Ctrl+Shift+Z undo and redo through tagd.
 *
 * Options (every property from \c separators to \c history) go to tagd's \c field/open; changing
 * one sends them all with \c field/setOptions: the field keeps its tags (tags a stricter rule
 * breaks are kept and flagged: \c flaggedTags), draft and undo history. (A tagd without that
 * method gets the session re-opened with the tags and text the widget shows.)
 *
 * A refused candidate's reason (tagd's sentence) is shown under the field (\c refusal) as well
 * as announced. In a right-to-left layout the chips are mirrored.
 */
class TAGDQT_EXPORT TagEdit : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(QStringList tags READ tags WRITE setTags NOTIFY tagsChanged)
    Q_PROPERTY(QString draft READ draft NOTIFY draftChanged)
    Q_PROPERTY(QString prompt READ prompt WRITE setPrompt NOTIFY promptChanged)
    Q_PROPERTY(QStringList separators READ separators WRITE setSeparators NOTIFY separatorsChanged)
    Q_PROPERTY(int maxTags READ maxTags WRITE setMaxTags NOTIFY maxTagsChanged)
    Q_PROPERTY(int maxTagLength READ maxTagLength WRITE setMaxTagLength NOTIFY maxTagLengthChanged)
    Q_PROPERTY(bool caseSensitive READ caseSensitive WRITE setCaseSensitive NOTIFY caseSensitiveChanged)
    Q_PROPERTY(Transform transform READ transform WRITE setTransform NOTIFY transformChanged)
    Q_PROPERTY(QString pattern READ pattern WRITE setPattern NOTIFY patternChanged)
    Q_PROPERTY(QStringList allowed READ allowed WRITE setAllowed NOTIFY allowedChanged)
    Q_PROPERTY(bool allowListEnabled READ allowListEnabled WRITE setAllowListEnabled NOTIFY allowListEnabledChanged)
    Q_PROPERTY(QStringList denied READ denied WRITE setDenied NOTIFY deniedChanged)
    Q_PROPERTY(QStringList suggestions READ suggestions WRITE setSuggestions NOTIFY suggestionsChanged)
    Q_PROPERTY(QString vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(BackspaceMode backspaceMode READ backspaceMode WRITE setBackspaceMode NOTIFY backspaceModeChanged)
    Q_PROPERTY(bool commitOnBlur READ commitOnBlur WRITE setCommitOnBlur NOTIFY commitOnBlurChanged)
    Q_PROPERTY(int history READ history WRITE setHistory NOTIFY historyChanged)
    Q_PROPERTY(int selectedIndex READ selectedIndex NOTIFY selectedIndexChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY undoStateChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY undoStateChanged)
    Q_PROPERTY(QString announcement READ announcement NOTIFY announced)
    Q_PROPERTY(QString refusal READ refusal NOTIFY refusalChanged)
    Q_PROPERTY(QStringList flaggedTags READ flaggedTags NOTIFY flaggedTagsChanged)

public:
    enum class Transform { None, Lowercase, Uppercase };
    Q_ENUM(Transform)
    enum class BackspaceMode { Remove, Select, Edit };
    Q_ENUM(BackspaceMode)
    //! Why a candidate was refused (tagd's \c outcome.dropped[].reason).
    enum class DropReason { Empty, Duplicate, TooLong, TooMany, Pattern, NotAllowed, Denied, Other };
    Q_ENUM(DropReason)

    explicit TagEdit(QWidget *parent = nullptr);
    ~TagEdit() override;

    QStringList tags() const;
    //! Replaces every tag (tagd's rules apply: duplicates and invalid tags are dropped).
    void setTags(const QStringList &tags);
    QString draft() const;

    //! The placeholder and the text's accessible name. Unset (empty): tagd's own, in the
    //! application's language ("Add a tag", "Etiqueta hinzufügen"...).
    QString prompt() const;
    void setPrompt(const QString &prompt);
    QStringList separators() const;
    //! One-character strings; "\n" is newline. Empty: tagd's default (\c , and newline).
    void setSeparators(const QStringList &separators);
    int maxTags() const;
    void setMaxTags(int maxTags); //!< -1: tagd's own limit
    int maxTagLength() const;
    void setMaxTagLength(int maxTagLength); //!< -1: tagd's own limit
    bool caseSensitive() const;
    void setCaseSensitive(bool caseSensitive);
    Transform transform() const;
    void setTransform(Transform transform);
    QString pattern() const;
    void setPattern(const QString &pattern); //!< a regular expression every tag must match
    QStringList allowed() const;
    //! The only tags accepted, when allowListEnabled (setting it enables the list).
    void setAllowed(const QStringList &allowed);
    bool allowListEnabled() const;
    void setAllowListEnabled(bool enabled);
    QStringList denied() const;
    void setDenied(const QStringList &denied);
    QStringList suggestions() const;
    //! The vocabulary of the suggestion popup (\c field/suggest).
    void setSuggestions(const QStringList &suggestions);
    QString vault() const;
    //! A folder of Markdown or Org notes (SPEC §6d): its tags are suggested after the field's
    //! own suggestions, most used first (tagd's \c suggestFromVault), and its \c .tagd.toml
    //! applies to the field. Empty (the default): no vault.
    void setVault(const QString &folder);
    BackspaceMode backspaceMode() const;
    void setBackspaceMode(BackspaceMode mode);
    bool commitOnBlur() const;
    void setCommitOnBlur(bool commit);
    int history() const;
    void setHistory(int steps);

    int selectedIndex() const; //!< the chip tagd has selected, or -1
    bool canUndo() const;
    bool canRedo() const;
    QString announcement() const; //!< the last sentence tagd gave
    //! tagd's sentence for the last refused candidate, shown under the field until the user
    //! types again or the tags change; empty when nothing is refused.
    QString refusal() const;
    //! Tags kept although they break a rule made stricter since (tagd's \c flagged): their
    //! chips are outlined in the error colour until they are edited or removed.
    QStringList flaggedTags() const;

    //! The text the user types into (for focus, and for assistive technology).
    QWidget *textWidget() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    //! Adds candidates from outside the text (a suggestion button): tagd's rules apply.
    void addTags(const QStringList &tags);
    void removeTag(const QString &tag);
    void undo();
    void redo();

Q_SIGNALS:
    void tagsChanged();
    void draftChanged();
    void promptChanged();
    void separatorsChanged();
    void maxTagsChanged();
    void maxTagLengthChanged();
    void caseSensitiveChanged();
    void transformChanged();
    void patternChanged();
    void allowedChanged();
    void allowListEnabledChanged();
    void deniedChanged();
    void suggestionsChanged();
    void vaultChanged();
    void backspaceModeChanged();
    void commitOnBlurChanged();
    void historyChanged();
    void selectedIndexChanged();
    void undoStateChanged();
    //! A candidate tagd refused; \a index is the equal tag's index for Duplicate, else -1.
    void tagDropped(const QString &text, Tagd::TagEdit::DropReason reason, int index);
    //! Every sentence tagd gave for a change, in the application's language.
    void announced(const QString &sentence);
    void refusalChanged();
    void flaggedTagsChanged();

protected:
    void paintEvent(QPaintEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;
    void changeEvent(QEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;

private:
    friend class TagEditPrivate;
    std::unique_ptr<TagEditPrivate> d;
};

} // namespace Tagd
