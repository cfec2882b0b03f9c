// SPDX-License-Identifier: MIT
//
// The Qt Quick TagEdit: the same FieldSession as the widget (one tagd child per application,
// the editor sync path, keys held while a request is in flight, re-opened with nothing lost when
// tagd is restarted), on a TextInput instead of a QLineEdit. The item loads TagEditContent.qml
// (chips, the TextInput, the suggestion list) as its child and lays it out where field/layout
// says. Keys reach the session through an event filter on the TextInput, before the TextInput
// sees them, exactly as the widget's filter on its QLineEdit.

#include "quicktagedit_p.h"

#include "content_p.h"

#include <QtCore/QTimer>
#include <QtGui/QAccessible>
#include <QtGui/QFontMetricsF>
#include <QtGui/QGuiApplication>
#include <QtGui/QKeyEvent>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

QuickTagEdit::QuickTagEdit(QQuickItem *parent)
    : QQuickItem(parent)
    , m_session(new FieldSession(this, this))
    , m_font(QGuiApplication::font())
{
    setFlag(ItemIsFocusScope);
    setActiveFocusOnTab(true);
    setImplicitWidth(320);
    setImplicitHeight(std::ceil(QFontMetricsF(m_font).height()) + 6 + 2 * Margin);

    connect(m_session, &FieldSession::promptChanged, this, &QuickTagEdit::promptChanged);
    connect(m_session, &FieldSession::tagsReplaced, this, [this] { requestLayout(); });
    connect(m_session, &FieldSession::selectedChanged, this, &QuickTagEdit::selectedIndexChanged);
    connect(m_session, &FieldSession::undoStateChanged, this, &QuickTagEdit::undoStateChanged);
    connect(m_session, &FieldSession::tagsChanged, this, &QuickTagEdit::tagsChanged);
    connect(m_session, &FieldSession::draftChanged, this, &QuickTagEdit::draftChanged);
    connect(m_session, &FieldSession::dropped, this, [this](const QString &text, int reason, int index) {
        Q_EMIT tagDropped(text, DropReason(reason), index);
    });
    connect(m_session, &FieldSession::announced, this, &QuickTagEdit::announced);
    connect(m_session, &FieldSession::refusalChanged, this, &QuickTagEdit::refusalChanged);
    connect(m_session, &FieldSession::flaggedChanged, this, &QuickTagEdit::flaggedTagsChanged);
    connect(m_session, &FieldSession::contentChanged, this, [this] { updateSuggestions(); });
    connect(m_session, &FieldSession::editRequested, this, &QuickTagEdit::editChip);
    connect(m_session, &FieldSession::tagsReplaced, this, [this] {
        if (m_editingIndex >= 0) { // the chip edited is gone or moved: the edit ends
            m_editingIndex = -1;
            Q_EMIT editingIndexChanged();
        }
    });
    connect(m_session, &FieldSession::layoutNeeded, this, [this] {
        m_lastWidth = -1;
        requestLayout();
    });
}

QuickTagEdit::~QuickTagEdit()
{
    if (m_input)
        m_input->removeEventFilter(this);
    m_session->disconnect(this);
    delete m_session;
}

void QuickTagEdit::componentComplete()
{
    QQuickItem::componentComplete();
    m_content = loadContent(this, "Tagd.TagEdit", u"qrc:/qt/qml/Tagd/TagEditContent.qml"_s, u"field"_s);
    if (!m_content)
        return;
    m_input = m_content->findChild<QQuickItem *>(u"tagdInput"_s);
    if (!m_input) {
        qWarning("Tagd.TagEdit: TagEditContent.qml has no tagdInput");
        return;
    }
    m_input->installEventFilter(this);
    // TextInput is not public C++ API: its signal is connected by name.
    connect(m_input, SIGNAL(textChanged()), this, SLOT(inputTextChanged()));
    // The refusal shown under the field makes the item taller.
    connect(m_content, SIGNAL(messageHeightChanged()), this, SLOT(updateImplicitHeight()));
    QObject::connect(m_input, &QQuickItem::activeFocusChanged, this, [this](bool focused) {
        if (focused) {
            updateSuggestions();
        } else {
            hideSuggestions();
            if (m_editingIndex < 0) // (a chip edited in place holds the focus: not a blur)
                m_session->blur();
        }
    });
    requestLayout();
}

QString QuickTagEdit::text() const { return m_input ? m_input->property("text").toString() : QString(); }
int QuickTagEdit::cursorPosition() const { return m_input ? m_input->property("cursorPosition").toInt() : 0; }
bool QuickTagEdit::hasSelectedText() const
{
    return m_input && !m_input->property("selectedText").toString().isEmpty();
}

void QuickTagEdit::setText(const QString &t, int cursor)
{
    if (!m_input)
        return;
    m_input->setProperty("text", t);
    m_input->setProperty("cursorPosition", cursor);
}

void QuickTagEdit::setCursorPosition(int cursor)
{
    if (m_input)
        m_input->setProperty("cursorPosition", cursor);
}

// LayoutMirroring (set on the item or inherited from its parents), as the content reads it.
bool QuickTagEdit::isRightToLeft() const { return m_content && m_content->property("mirrored").toBool(); }

void QuickTagEdit::updateImplicitHeight()
{
    const qreal message = m_content ? m_content->property("messageHeight").toReal() : 0;
    setImplicitHeight(std::ceil(m_contentHeight) + 2 * Margin + message);
}

void QuickTagEdit::deliverKey(QKeyEvent *event)
{
    if (m_input)
        QCoreApplication::sendEvent(m_input, event);
}

bool QuickTagEdit::inputHasFocus() const { return m_input && m_input->hasActiveFocus(); }

bool QuickTagEdit::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress && m_session->filterKey(static_cast<QKeyEvent *>(event)))
        return true;
    return QQuickItem::eventFilter(watched, event);
}

void QuickTagEdit::setPrompt(const QString &prompt)
{
    if (m_session->options.prompt == prompt)
        return;
    m_session->options.prompt = prompt;
    optionChanged();
    Q_EMIT promptChanged();
}

void QuickTagEdit::optionChanged()
{
    m_session->optionChanged();
    Q_EMIT optionsChanged();
}

void QuickTagEdit::setFont(const QFont &font)
{
    if (font == m_font)
        return;
    m_font = font;
    Q_EMIT fontChanged();
    m_lastWidth = -1;
    requestLayout();
}

void QuickTagEdit::removeTag(const QString &tag)
{
    m_session->removeTag(tag);
    if (m_input)
        m_input->forceActiveFocus(Qt::OtherFocusReason);
}

void QuickTagEdit::selectChip(int index)
{
    m_session->select(index);
    if (m_input)
        m_input->forceActiveFocus(Qt::MouseFocusReason);
}

// A chip edited in place (TagEditContent.qml shows a TextInput over it): as the widget does,
// Return sends field/replaceTag, a refused text leaves the tag as it was, Escape cancels, and
// the draft is never touched.
void QuickTagEdit::editChip(int index)
{
    if (index < 0 || index >= m_session->tags.size() || index == m_editingIndex)
        return;
    m_editingIndex = index;
    Q_EMIT editingIndexChanged();
}

void QuickTagEdit::finishEdit(bool commit, const QString &text)
{
    const int index = m_editingIndex;
    if (index < 0)
        return;
    m_editingIndex = -1;
    Q_EMIT editingIndexChanged();
    if (m_input && hasActiveFocus()) // (focus gone elsewhere stays there)
        m_input->forceActiveFocus(Qt::OtherFocusReason);
    if (commit && index < m_session->tags.size() && text != m_session->tags.at(index))
        m_session->replaceTag(index, text);
}

void QuickTagEdit::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.width() != oldGeometry.width())
        requestLayout();
}

void QuickTagEdit::requestLayout()
{
    if (!isComponentComplete() || !m_session->isOpen())
        return;
    const double width = std::max(1.0, double(this->width()) - 2 * Margin);
    QList<QSizeF> sizes;
    for (const QString &tag : std::as_const(m_session->tags))
        sizes << FieldSession::chipSize(m_font, tag);
    const QFontMetricsF fm(m_font);
    const double minWidth = std::max(96.0, fm.horizontalAdvance(prompt()) + 8);
    m_lastWidth = width;
    const QStringList forTags = m_session->tags;
    m_session->layout(width, sizes, std::ceil(fm.height()) + 6, minWidth, this,
                      [this, forTags](const QList<QRectF> &frames, double height) {
                          QVariantList chips;
                          for (int i = 0; i < forTags.size() && i < frames.size() - 1; ++i)
                              chips << QVariantMap{{u"tag"_s, forTags[i]}, {u"frame"_s, frames[i]}};
                          m_chips = chips;
                          if (!frames.isEmpty())
                              m_inputFrame = frames.last();
                          m_contentHeight = height;
                          updateImplicitHeight();
                          Q_EMIT laidOut();
                      });
}

// ---- suggestions (field/suggest): matched letters in bold, no row current until Down or Up

void QuickTagEdit::updateSuggestions()
{
    if ((m_session->options.suggestions.isEmpty() && m_session->options.vault.isEmpty()) || m_session->draft.trimmed().isEmpty() || !inputHasFocus()) {
        hideSuggestions();
        return;
    }
    m_session->suggest(8, this, [this](const QList<FieldSession::Suggestion> &items) {
        QVariantList out;
        for (const FieldSession::Suggestion &item : items) {
            QVector<bool> bold(item.text.size(), false);
            for (const auto &[start, end] : item.matches)
                for (int i = std::max(0, start); i < std::min(int(item.text.size()), end); ++i)
                    bold[i] = true;
            QString rich;
            for (int i = 0; i < item.text.size(); ++i) {
                const QString c = item.text.mid(i, 1).toHtmlEscaped();
                rich += bold[i] ? u"<b>"_s + c + u"</b>"_s : c;
            }
            out << QVariantMap{{u"text"_s, item.text}, {u"rich"_s, rich}};
        }
        m_current = -1;
        m_suggestionItems = inputHasFocus() ? out : QVariantList();
        Q_EMIT suggestionItemsChanged();
    });
}

void QuickTagEdit::hideSuggestions()
{
    m_session->cancelSuggest();
    const bool hadCurrent = m_current >= 0;
    m_current = -1;
    if (!m_suggestionItems.isEmpty()) {
        m_suggestionItems.clear();
        Q_EMIT suggestionItemsChanged();
    }
    if (hadCurrent && inputHasFocus()) {
        // Down/Up made a suggestion the accessible focus: give it back to the text.
        QAccessibleEvent focus(m_input.data(), QAccessible::Focus);
        QAccessible::updateAccessibility(&focus);
    }
}

bool QuickTagEdit::suggestionKey(QKeyEvent *e)
{
    const int n = int(m_suggestionItems.size());
    if (n == 0)
        return false;
    const Qt::KeyboardModifiers mods = e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier | Qt::MetaModifier);
    const bool plain = mods == Qt::NoModifier;
    const int key = e->key();
    if ((key == Qt::Key_Down || key == Qt::Key_Up) && plain) {
        m_current = key == Qt::Key_Down ? (m_current + 1) % n : (m_current <= 0 ? n - 1 : m_current - 1);
        Q_EMIT suggestionItemsChanged();
        return true;
    }
    if (key == Qt::Key_Escape) {
        hideSuggestions();
        return true;
    }
    if (key == Qt::Key_Tab && plain && !text().isEmpty()) {
        takeSuggestion(std::max(0, m_current));
        return true;
    }
    if ((key == Qt::Key_Return || key == Qt::Key_Enter) && plain && m_current >= 0) {
        takeSuggestion(m_current);
        return true;
    }
    return false;
}

void QuickTagEdit::takeSuggestion(int index)
{
    if (index < 0 || index >= m_suggestionItems.size())
        return;
    const QString chosen = m_suggestionItems[index].toMap().value(u"text"_s).toString();
    hideSuggestions();
    m_session->takeSuggestion(chosen);
    if (m_input)
        m_input->forceActiveFocus(Qt::OtherFocusReason);
}

} // namespace Tagd
