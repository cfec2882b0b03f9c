// SPDX-License-Identifier: MIT
// The Tagd 1.0 QML module's TagEdit: a Qt Quick item whose session and sync path are the
// widget's (FieldSession); what it shows is TagEditContent.qml, bound to this item.
#pragma once

#include "fieldsession_p.h"

#include <QtCore/QPointer>
#include <QtQml/qqmlregistration.h>
#include <QtQuick/QQuickItem>

namespace Tagd {

class QuickTagEdit : public QQuickItem, private FieldSession::Text
{
    Q_OBJECT
    QML_NAMED_ELEMENT(TagEdit)
    Q_PROPERTY(QStringList tags READ tags WRITE setTags NOTIFY tagsChanged)
    Q_PROPERTY(QString draft READ draft NOTIFY draftChanged)
    Q_PROPERTY(QString prompt READ prompt WRITE setPrompt NOTIFY promptChanged)
    Q_PROPERTY(QStringList separators READ separators WRITE setSeparators NOTIFY optionsChanged)
    Q_PROPERTY(int maxTags READ maxTags WRITE setMaxTags NOTIFY optionsChanged)
    Q_PROPERTY(int maxTagLength READ maxTagLength WRITE setMaxTagLength NOTIFY optionsChanged)
    Q_PROPERTY(bool caseSensitive READ caseSensitive WRITE setCaseSensitive NOTIFY optionsChanged)
    Q_PROPERTY(Transform tagTransform READ tagTransform WRITE setTagTransform NOTIFY optionsChanged)
    Q_PROPERTY(QString pattern READ pattern WRITE setPattern NOTIFY optionsChanged)
    Q_PROPERTY(QStringList allowed READ allowed WRITE setAllowed NOTIFY optionsChanged)
    Q_PROPERTY(bool allowListEnabled READ allowListEnabled WRITE setAllowListEnabled NOTIFY optionsChanged)
    Q_PROPERTY(QStringList denied READ denied WRITE setDenied NOTIFY optionsChanged)
    Q_PROPERTY(QStringList suggestions READ suggestions WRITE setSuggestions NOTIFY optionsChanged)
    Q_PROPERTY(QString vault READ vault WRITE setVault NOTIFY optionsChanged)
    Q_PROPERTY(BackspaceMode backspaceMode READ backspaceMode WRITE setBackspaceMode NOTIFY optionsChanged)
    Q_PROPERTY(bool commitOnBlur READ commitOnBlur WRITE setCommitOnBlur NOTIFY optionsChanged)
    Q_PROPERTY(int history READ history WRITE setHistory NOTIFY optionsChanged)
    Q_PROPERTY(int selectedIndex READ selectedIndex NOTIFY selectedIndexChanged)
    Q_PROPERTY(bool canUndo READ canUndo NOTIFY undoStateChanged)
    Q_PROPERTY(bool canRedo READ canRedo NOTIFY undoStateChanged)
    Q_PROPERTY(QString announcement READ announcement NOTIFY announced)
    Q_PROPERTY(QString refusal READ refusal NOTIFY refusalChanged)
    Q_PROPERTY(QStringList flaggedTags READ flaggedTags NOTIFY flaggedTagsChanged)
    Q_PROPERTY(QFont font READ font WRITE setFont NOTIFY fontChanged)
    // For TagEditContent.qml: where tagd put things, and the suggestion list.
    Q_PROPERTY(QVariantList chips READ chips NOTIFY laidOut)
    Q_PROPERTY(QRectF inputFrame READ inputFrame NOTIFY laidOut)
    Q_PROPERTY(qreal contentHeight READ contentHeight NOTIFY laidOut)
    Q_PROPERTY(qreal margin READ margin CONSTANT)
    Q_PROPERTY(qreal chipPadding READ chipPadding NOTIFY fontChanged)
    Q_PROPERTY(qreal chipButtonSize READ chipButtonSize NOTIFY fontChanged)
    Q_PROPERTY(QVariantList suggestionItems READ suggestionItems NOTIFY suggestionItemsChanged)
    Q_PROPERTY(int currentSuggestion READ currentSuggestion NOTIFY suggestionItemsChanged)
    Q_PROPERTY(int editingIndex READ editingIndex NOTIFY editingIndexChanged)

public:
    enum Transform { None, Lowercase, Uppercase };
    Q_ENUM(Transform)
    enum BackspaceMode { Remove, Select, Edit };
    Q_ENUM(BackspaceMode)
    enum DropReason { Empty, Duplicate, TooLong, TooMany, Pattern, NotAllowed, Denied, Other };
    Q_ENUM(DropReason)

    explicit QuickTagEdit(QQuickItem *parent = nullptr);
    ~QuickTagEdit() override;

    QStringList tags() const { return m_session->tags; }
    void setTags(const QStringList &tags) { m_session->setTags(tags); }
    QString draft() const { return m_session->draft; }
    QString prompt() const { return m_session->prompt(); }
    void setPrompt(const QString &prompt);
    QStringList separators() const { return m_session->options.separators; }
    void setSeparators(const QStringList &v) { m_session->options.separators = v; optionChanged(); }
    int maxTags() const { return m_session->options.maxTags; }
    void setMaxTags(int v) { m_session->options.maxTags = v; optionChanged(); }
    int maxTagLength() const { return m_session->options.maxTagLength; }
    void setMaxTagLength(int v) { m_session->options.maxTagLength = v; optionChanged(); }
    bool caseSensitive() const { return m_session->options.caseSensitive; }
    void setCaseSensitive(bool v) { m_session->options.caseSensitive = v; optionChanged(); }
    Transform tagTransform() const { return Transform(m_session->options.transform); }
    void setTagTransform(Transform v) { m_session->options.transform = int(v); optionChanged(); }
    QString pattern() const { return m_session->options.pattern; }
    void setPattern(const QString &v) { m_session->options.pattern = v; optionChanged(); }
    QStringList allowed() const { return m_session->options.allowed; }
    void setAllowed(const QStringList &v) { m_session->options.allowed = v; m_session->options.allowList = true; optionChanged(); }
    bool allowListEnabled() const { return m_session->options.allowList; }
    void setAllowListEnabled(bool v) { m_session->options.allowList = v; optionChanged(); }
    QStringList denied() const { return m_session->options.denied; }
    void setDenied(const QStringList &v) { m_session->options.denied = v; optionChanged(); }
    QStringList suggestions() const { return m_session->options.suggestions; }
    void setSuggestions(const QStringList &v) { m_session->setSuggestions(v); Q_EMIT optionsChanged(); }
    QString vault() const { return m_session->options.vault; }
    //! A folder of notes whose tags are suggested too (TagEdit::vault).
    void setVault(const QString &v) { m_session->setVault(v); Q_EMIT optionsChanged(); }
    BackspaceMode backspaceMode() const { return BackspaceMode(m_session->options.backspace); }
    void setBackspaceMode(BackspaceMode v) { m_session->options.backspace = int(v); optionChanged(); }
    bool commitOnBlur() const { return m_session->options.commitOnBlur; }
    void setCommitOnBlur(bool v) { m_session->options.commitOnBlur = v; optionChanged(); }
    int history() const { return m_session->options.history; }
    void setHistory(int v) { m_session->options.history = v; optionChanged(); }
    int selectedIndex() const { return m_session->selected; }
    bool canUndo() const { return m_session->canUndo; }
    bool canRedo() const { return m_session->canRedo; }
    QString announcement() const { return m_session->announcement; }
    QString refusal() const { return m_session->refusal; }
    QStringList flaggedTags() const { return m_session->flagged; }
    QFont font() const { return m_font; }
    void setFont(const QFont &font);

    QVariantList chips() const { return m_chips; }
    QRectF inputFrame() const { return m_inputFrame; }
    qreal contentHeight() const { return m_contentHeight; }
    static constexpr qreal Margin = 6;
    qreal margin() const { return Margin; }
    qreal chipPadding() const { return FieldSession::chipPadding(m_font); }
    qreal chipButtonSize() const { return FieldSession::chipButtonSize(m_font); }
    QVariantList suggestionItems() const { return m_suggestionItems; }
    int currentSuggestion() const { return m_current; }
    //! The chip being edited in place (Return, F2 or a double-click on it), or -1.
    int editingIndex() const { return m_editingIndex; }

public Q_SLOTS:
    void addTags(const QStringList &tags) { m_session->addTags(tags); }
    void removeTag(const QString &tag);
    void undo() { m_session->request(QStringLiteral("field/undo"), m_session->fieldParams()); }
    void redo() { m_session->request(QStringLiteral("field/redo"), m_session->fieldParams()); }
    // For TagEditContent.qml
    void selectChip(int index);
    void editChip(int index);
    //! Ends the edit in place: with \a commit, field/replaceTag with \a text (unless unchanged).
    void finishEdit(bool commit, const QString &text);
    void takeSuggestion(int index);

Q_SIGNALS:
    void tagsChanged();
    void draftChanged();
    void promptChanged();
    void optionsChanged();
    void selectedIndexChanged();
    void undoStateChanged();
    void fontChanged();
    //! A candidate tagd refused; \a index is the equal tag's index for Duplicate, else -1.
    void tagDropped(const QString &text, Tagd::QuickTagEdit::DropReason reason, int index);
    //! Every sentence tagd gave for a change, in the application's language.
    void announced(const QString &sentence);
    void refusalChanged();
    void flaggedTagsChanged();
    void laidOut();
    void suggestionItemsChanged();
    void editingIndexChanged();

private Q_SLOTS:
    void inputTextChanged() { m_session->textChanged(); }
    void updateImplicitHeight();

protected:
    void componentComplete() override;
    void geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    // FieldSession::Text, on the content's TextInput
    QString text() const override;
    int cursorPosition() const override;
    bool hasSelectedText() const override;
    void setText(const QString &text, int cursor) override;
    void setCursorPosition(int cursor) override;
    bool isRightToLeft() const override;
    void deliverKey(QKeyEvent *event) override;
    bool suggestionKey(QKeyEvent *event) override;
    QObject *accessibleObject() const override { return m_input; }

    void optionChanged();
    void requestLayout();
    void updateSuggestions();
    void hideSuggestions();
    bool inputHasFocus() const;

    FieldSession *m_session;
    QPointer<QQuickItem> m_content, m_input;
    QFont m_font;
    QVariantList m_chips;
    QRectF m_inputFrame;
    qreal m_contentHeight = 0;
    qreal m_lastWidth = -1;
    QVariantList m_suggestionItems;
    int m_current = -1; // Down/Up moved the highlight: Return takes it
    int m_editingIndex = -1;
};

} // namespace Tagd
