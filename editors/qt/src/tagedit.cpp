// SPDX-License-Identifier: MIT
//
// The entry owns its text (a frameless QLineEdit); the session in tagd and the editor sync path
// (every change of the text reported as field/didChange, tagd's edits applied only at their
// version, keys held while a request is in flight) are FieldSession's, shared with the Qt Quick
// item.
//
// Layout: each chip is measured with QFontMetrics, the sizes go to field/layout, and chips and
// text are placed at the frames that come back (the text takes the rest of its line).

#include "TagdQt/tagedit.h"

#include "fieldsession_p.h"

#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtGui/QAccessible>
#include <QtGui/QFocusEvent>
#include <QtGui/QKeyEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QStyle>
#include <QtWidgets/QStyleOptionFrame>
#include <QtWidgets/QStyledItemDelegate>
#include <QtWidgets/QToolButton>
#include <QtWidgets/QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

namespace {

constexpr int FlashMs = 900;

// ---- a chip: the tag's label and its remove button

class Chip : public QWidget
{
public:
    Chip(const QString &tag, QWidget *parent)
        : QWidget(parent)
        , tag(tag)
        , remove(new QToolButton(this))
    {
        setAccessibleName(tag);
        setFocusPolicy(Qt::NoFocus);
        remove->setText(u"\u00d7"_s);
        remove->setAutoRaise(true);
        remove->setFocusPolicy(Qt::TabFocus);
        //: The accessible name and tooltip of a chip's remove button; %1 is the tag.
        remove->setAccessibleName(TagEdit::tr("Remove %1").arg(tag));
        remove->setToolTip(remove->accessibleName());
        remove->setCursor(Qt::ArrowCursor);
    }

    QSizeF measure() const { return FieldSession::chipSize(font(), tag); }

    void setSelected(bool on)
    {
        if (selected != on) {
            selected = on;
            update();
        }
    }

    void setFlagged(bool on)
    {
        if (flagged != on) {
            flagged = on;
            update();
        }
    }

    void flash()
    {
        flashing = true;
        update();
        QTimer::singleShot(FlashMs, this, [this] {
            flashing = false;
            update();
        });
    }

    const QString tag;
    QToolButton *const remove;
    bool selected = false;
    bool flashing = false;
    bool flagged = false; // breaks a rule made stricter since it was added: outlined
    bool placed = false;   // has a frame from tagd
    bool removing = false; // field/removeTag sent: hidden until tagd answers
    std::function<void()> onPress, onDoubleClick;

protected:
    double pad() const { return FieldSession::chipPadding(font()); }
    int buttonSize() const { return int(FieldSession::chipButtonSize(font())); }

    void resizeEvent(QResizeEvent *) override
    {
        const int b = buttonSize();
        const int x = isRightToLeft() ? int(pad() / 2) : width() - b - int(pad() / 2);
        remove->setGeometry(x, (height() - b) / 2, b, b);
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette &pal = palette();
        // The accent (the palette's highlight) at 16 %, as the seed tints its chips.
        QColor fill = pal.color(QPalette::Highlight);
        fill.setAlphaF(0.16);
        QColor ink = pal.color(QPalette::Text);
        if (selected) {
            fill = pal.color(QPalette::Highlight);
            ink = pal.color(QPalette::HighlightedText);
        } else if (flashing) {
            fill = QColor(0xf5, 0xc2, 0x11, 0xb0);
        }
        const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
        p.setPen(flagged ? QPen(QColor(0xc0, 0x1c, 0x28), 2) : QPen(Qt::NoPen));
        p.setBrush(fill);
        p.drawRoundedRect(flagged ? r.adjusted(0.5, 0.5, -0.5, -0.5) : r, r.height() / 2, r.height() / 2);
        p.setPen(ink);
        // The label, then the remove button, in reading order (mirrored right to left).
        const int labelWidth = width() - 2 * int(pad()) - buttonSize();
        const QRect textRect(isRightToLeft() ? remove->geometry().right() + 1 + int(pad() / 2) : int(pad()), 0,
                             labelWidth, height());
        p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeading,
                   fontMetrics().elidedText(tag, Qt::ElideRight, textRect.width()));
    }

    void mousePressEvent(QMouseEvent *) override
    {
        if (onPress)
            onPress();
    }
    void mouseDoubleClickEvent(QMouseEvent *) override
    {
        if (onDoubleClick)
            onDoubleClick();
    }
};

// ---- a chip edited in place: its text in a line edit over the chip's label

class ChipEditor : public QLineEdit
{
public:
    using QLineEdit::QLineEdit;
    std::function<void(bool commit)> onDone; // Return (or focus leaving) commits, Escape cancels

protected:
    void keyPressEvent(QKeyEvent *e) override
    {
        if (e->key() == Qt::Key_Return || e->key() == Qt::Key_Enter || e->key() == Qt::Key_Escape) {
            if (onDone)
                onDone(e->key() != Qt::Key_Escape);
            return;
        }
        QLineEdit::keyPressEvent(e);
    }
    void focusOutEvent(QFocusEvent *e) override
    {
        QLineEdit::focusOutEvent(e);
        if (onDone)
            QTimer::singleShot(0, this, [this] {
                if (onDone)
                    onDone(true);
            });
    }
};

// ---- the suggestion popup: a list that never takes focus, matched letters in bold

constexpr int MatchesRole = Qt::UserRole + 1;

class MatchDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt = option;
        initStyleOption(&opt, index);
        const QString text = opt.text;
        opt.text.clear();
        QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
        const QRect r = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget).adjusted(4, 0, -4, 0);
        QVector<bool> bold(text.size(), false);
        for (const QVariant &m : index.data(MatchesRole).toList()) {
            const QPoint se = m.toPoint();
            for (int i = std::max(0, se.x()); i < std::min(int(text.size()), se.y()); ++i)
                bold[i] = true;
        }
        painter->save();
        painter->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                                                             : QPalette::Text));
        QFont normal = opt.font, strong = opt.font;
        strong.setBold(true);
        double x = r.x();
        int i = 0;
        while (i < text.size()) {
            int j = i;
            while (j < text.size() && bold[j] == bold[i])
                ++j;
            const QString run = text.mid(i, j - i);
            painter->setFont(bold[i] ? strong : normal);
            painter->drawText(QRectF(x, r.y(), r.right() - x, r.height()), Qt::AlignVCenter | Qt::AlignLeft, run);
            x += QFontMetricsF(bold[i] ? strong : normal).horizontalAdvance(run);
            i = j;
        }
        painter->restore();
    }
};

} // namespace
// ---------------------------------------------------------------------------------------------

class TagEditPrivate : public FieldSession::Text
{
public:
    explicit TagEditPrivate(TagEdit *q);

    // FieldSession::Text
    QString text() const override { return line->text(); }
    int cursorPosition() const override { return line->cursorPosition(); }
    bool hasSelectedText() const override { return line->hasSelectedText(); }
    void setText(const QString &t, int cursor) override
    {
        line->setText(t);
        line->setCursorPosition(cursor);
    }
    void setCursorPosition(int cursor) override { line->setCursorPosition(cursor); }
    bool isRightToLeft() const override { return q->isRightToLeft(); }
    void deliverKey(QKeyEvent *e) override { QCoreApplication::sendEvent(line, e); }
    bool suggestionKey(QKeyEvent *e) override;
    QObject *accessibleObject() const override { return line; }

    void rebuildChips();
    void startEdit(int index);
    void finishEdit(bool commit);
    void requestLayout();
    void placeFromFrames(const QList<QRectF> &frames, double height);
    void updateSuggestions();
    void takeSuggestion(int row);
    void hidePopup();
    void positionPopup();
    int messageHeight() const
    {
        return message->isVisible() ? message->heightForWidth(q->width()) + q->layout()->spacing() : 0;
    }

    TagEdit *const q;
    FieldSession *session = nullptr;
    QScrollArea *scroll;
    QWidget *content;
    QLineEdit *line;
    QListWidget *popup;
    QLabel *message; // tagd's sentence for the last refusal, under the field
    QList<Chip *> chips;
    QPointer<ChipEditor> editor; // a chip being edited in place, over that chip

    double lastWidth = -1;
    double contentHeight = 0;
    bool popupChosen = false; // Down/Up moved the highlight: Return takes it
    QMetaObject::Connection focusConnection;
};

TagEditPrivate::TagEditPrivate(TagEdit *q)
    : q(q)
    , scroll(new QScrollArea(q))
    , content(new QWidget)
    , line(new QLineEdit(content))
    , popup(new QListWidget(q))
    , message(new QLabel(q))
{
    auto *box = new QVBoxLayout(q);
    const int frame = q->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, q);
    box->setContentsMargins(frame + 2, frame + 2, frame + 2, frame + 2);
    box->setSpacing(frame + 4);
    box->addWidget(scroll);
    // The refusal under the field, outside its frame (paintEvent frames the scroll area only),
    // in the theme's error-ish colour; a label AT-SPI reads, and tagd's sentence is announced too.
    box->addWidget(message);
    message->setObjectName(u"tagdRefusal"_s);
    message->setWordWrap(true);
    message->hide();
    message->setContentsMargins(2, 4, 2, 0);
    {
        QPalette pal = message->palette();
        pal.setColor(QPalette::WindowText, QColor(0xc0, 0x1c, 0x28));
        message->setPalette(pal);
    }
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setWidgetResizable(false);
    scroll->setWidget(content);
    scroll->viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    scroll->viewport()->installEventFilter(q);

    line->setFrame(false);
    line->installEventFilter(q);
    line->setContextMenuPolicy(Qt::NoContextMenu); // its Undo would bypass tagd's history
    q->setFocusProxy(line);
    q->setFocusPolicy(Qt::StrongFocus);
    q->setAttribute(Qt::WA_InputMethodEnabled);
    // As tall as its lines (sizeHint), never taller; shorter when the window is, then it scrolls.
    q->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    scroll->setMinimumSize(0, 0);
    box->setSizeConstraint(QLayout::SetNoConstraint);

    popup->setWindowFlags(Qt::ToolTip | Qt::FramelessWindowHint);
    popup->setAttribute(Qt::WA_ShowWithoutActivating);
    popup->setFocusPolicy(Qt::NoFocus);
    popup->setItemDelegate(new MatchDelegate(popup));
    popup->setAccessibleName(TagEdit::tr("Suggestions"));
    popup->setUniformItemSizes(true);
    QObject::connect(popup, &QListWidget::itemClicked, q,
                     [this](QListWidgetItem *item) { takeSuggestion(popup->row(item)); });

    session = new FieldSession(this, q);
    QObject::connect(line, &QLineEdit::textChanged, q, [this] {
        session->textChanged();
        scroll->ensureWidgetVisible(line, 0, 0);
    });
    QObject::connect(session, &FieldSession::promptChanged, q, [this] {
        if (session->options.prompt.isEmpty()) {
            line->setPlaceholderText(session->tagdPrompt);
            line->setAccessibleName(session->tagdPrompt);
        }
        Q_EMIT this->q->promptChanged();
    });
    QObject::connect(session, &FieldSession::tagsReplaced, q, [this] { rebuildChips(); });
    QObject::connect(session, &FieldSession::selectedChanged, q, [this] {
        for (int i = 0; i < chips.size(); ++i)
            chips[i]->setSelected(i == session->selected);
        Q_EMIT this->q->selectedIndexChanged();
    });
    QObject::connect(session, &FieldSession::undoStateChanged, q, &TagEdit::undoStateChanged);
    QObject::connect(session, &FieldSession::tagsChanged, q, &TagEdit::tagsChanged);
    QObject::connect(session, &FieldSession::draftChanged, q, &TagEdit::draftChanged);
    QObject::connect(session, &FieldSession::dropped, q, [this](const QString &text, int reason, int index) {
        if (index >= 0 && index < chips.size())
            chips[index]->flash();
        Q_EMIT this->q->tagDropped(text, TagEdit::DropReason(reason), index);
    });
    QObject::connect(session, &FieldSession::announced, q, &TagEdit::announced);
    QObject::connect(session, &FieldSession::flaggedChanged, q, [this] {
        for (Chip *c : std::as_const(chips))
            c->setFlagged(session->flagged.contains(c->tag));
        Q_EMIT this->q->flaggedTagsChanged();
    });
    QObject::connect(session, &FieldSession::refusalChanged, q, [this] {
        message->setText(session->refusal);
        message->setAccessibleName(session->refusal);
        message->setVisible(!session->refusal.isEmpty());
        this->q->updateGeometry();
        Q_EMIT this->q->refusalChanged();
    });
    QObject::connect(session, &FieldSession::contentChanged, q, [this] { updateSuggestions(); });
    QObject::connect(session, &FieldSession::editRequested, q, [this](int index) { startEdit(index); });
    QObject::connect(session, &FieldSession::answered, q, [this] {
        for (Chip *c : std::as_const(chips)) {
            if (c->removing) {
                c->removing = false;
                c->setVisible(c->placed);
            }
        }
    });
    QObject::connect(session, &FieldSession::layoutNeeded, q, [this] {
        lastWidth = -1;
        if (chips.size() == session->tags.size())
            requestLayout();
    });

    focusConnection = QObject::connect(qApp, &QApplication::focusChanged, q, [this](QWidget *old, QWidget *now) {
        const auto inside = [this](QWidget *w) { return w && (w == this->q || this->q->isAncestorOf(w)); };
        if (inside(old) && !inside(now)) {
            hidePopup();
            session->blur();
        }
    });
}

bool TagEditPrivate::suggestionKey(QKeyEvent *e)
{
    if (!popup->isVisible() || popup->count() == 0)
        return false;
    const Qt::KeyboardModifiers mods = e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier | Qt::MetaModifier);
    const bool plain = mods == Qt::NoModifier;
    const int key = e->key();
    if ((key == Qt::Key_Down || key == Qt::Key_Up) && plain) {
        const int row = popupChosen ? popup->currentRow() : -1;
        const int n = popup->count();
        popup->setCurrentRow(key == Qt::Key_Down ? (row + 1) % n : (row <= 0 ? n - 1 : row - 1));
        popupChosen = true;
        return true;
    }
    if (key == Qt::Key_Escape) {
        hidePopup();
        return true;
    }
    if (key == Qt::Key_Tab && plain && !line->text().isEmpty()) {
        takeSuggestion(popupChosen ? std::max(0, popup->currentRow()) : 0);
        return true;
    }
    if ((key == Qt::Key_Return || key == Qt::Key_Enter) && plain && popupChosen && popup->currentRow() >= 0) {
        takeSuggestion(popup->currentRow());
        return true;
    }
    return false;
}

// ---- chips and layout

// Return, F2 or a double-click on a chip: its text in a line edit over the chip's label, all
// selected. Return sends field/replaceTag; a text tagd refuses leaves the tag as it was (the
// refusal shown under the field and said), Escape leaves it untouched, focus leaving commits.
// The draft is never touched.
void TagEditPrivate::startEdit(int index)
{
    if (index < 0 || index >= chips.size())
        return;
    finishEdit(true);
    Chip *chip = chips[index];
    auto *e = new ChipEditor(chip);
    const double pad = FieldSession::chipPadding(chip->font());
    const int button = int(FieldSession::chipButtonSize(chip->font()));
    const int width = std::max(24, chip->width() - int(pad) - button - int(pad / 2));
    e->setGeometry(chip->isRightToLeft() ? chip->width() - width - int(pad / 2) : int(pad / 2), 1, width,
                   chip->height() - 2);
    e->setFrame(false);
    e->setText(chip->tag);
    e->selectAll();
    //: The accessible name of the text that edits a chip in place; %1 is the tag.
    e->setAccessibleName(TagEdit::tr("Edit %1").arg(chip->tag));
    e->onDone = [this](bool commit) { finishEdit(commit); };
    editor = e;
    e->show();
    e->setFocus(Qt::OtherFocusReason);
}

void TagEditPrivate::finishEdit(bool commit)
{
    ChipEditor *e = editor.data();
    if (!e)
        return;
    editor.clear();
    e->onDone = nullptr;
    auto *chip = static_cast<Chip *>(e->parentWidget());
    const int index = int(chips.indexOf(chip));
    const QString text = e->text();
    // Focus back to the text before the editor goes (a focused widget hidden hands its focus on).
    if (e->hasFocus())
        line->setFocus(Qt::OtherFocusReason);
    e->hide();
    e->deleteLater();
    if (commit && index >= 0 && text != chip->tag)
        session->replaceTag(index, text);
}

void TagEditPrivate::rebuildChips()
{
    QHash<QString, Chip *> old;
    for (Chip *c : std::as_const(chips))
        old.insert(c->tag, c);
    const bool chipHadFocus = QApplication::focusWidget() && content->isAncestorOf(QApplication::focusWidget())
                              && QApplication::focusWidget() != line;
    QList<Chip *> next;
    for (const QString &tag : std::as_const(session->tags)) {
        Chip *chip = old.take(tag);
        if (!chip) {
            chip = new Chip(tag, content);
            chip->hide(); // until tagd gives it a frame
            QPointer<Chip> guard(chip);
            QObject::connect(chip->remove, &QToolButton::clicked, q, [this, guard] {
                if (!guard || guard->removing)
                    return;
                guard->removing = true;
                guard->hide();
                session->removeTag(guard->tag);
                line->setFocus(Qt::OtherFocusReason);
            });
            chip->onPress = [this, guard] {
                if (guard)
                    session->select(int(chips.indexOf(guard.data())));
                line->setFocus(Qt::MouseFocusReason);
            };
            chip->onDoubleClick = [this, guard] {
                if (guard && chips.contains(guard.data()))
                    startEdit(int(chips.indexOf(guard.data())));
            };
        }
        chip->setSelected(false);
        chip->setFlagged(session->flagged.contains(tag));
        next << chip;
    }
    qDeleteAll(old);
    chips = next;
    for (int i = 0; i < chips.size(); ++i) {
        chips[i]->setSelected(i == session->selected);
        chips[i]->raise(); // children in tag order: assistive technology reads them in that order
        // Tab order: the remove buttons in tag order, then the text.
        if (i > 0)
            QWidget::setTabOrder(chips[i - 1]->remove, chips[i]->remove);
    }
    if (!chips.isEmpty())
        QWidget::setTabOrder(chips.last()->remove, line);
    if (chipHadFocus)
        line->setFocus(Qt::OtherFocusReason);
    lastWidth = -1;
    requestLayout();
}

void TagEditPrivate::requestLayout()
{
    if (!session || !session->isOpen())
        return;
    const double width = scroll->viewport()->width();
    QList<QSizeF> sizes;
    for (Chip *c : std::as_const(chips))
        sizes << c->measure();
    const QFontMetrics fm(line->font());
    const double minWidth = std::max(96, fm.horizontalAdvance(q->prompt()) + 8);
    lastWidth = width;
    session->layout(width, sizes, double(line->sizeHint().height()), minWidth, q,
                    [this](const QList<QRectF> &frames, double height) { placeFromFrames(frames, height); });
}

void TagEditPrivate::placeFromFrames(const QList<QRectF> &frames, double height)
{
    // tagd's frames flow left to right; right to left they are mirrored in the content's width.
    const double w = scroll->viewport()->width();
    const auto mirrored = [&](const QRectF &f) {
        return q->isRightToLeft() ? QRectF(w - f.x() - f.width(), f.y(), f.width(), f.height()) : f;
    };
    for (int i = 0; i < chips.size() && i < frames.size() - 1; ++i) {
        chips[i]->setGeometry(mirrored(frames[i]).toAlignedRect());
        chips[i]->placed = true;
        chips[i]->setVisible(!chips[i]->removing);
    }
    if (!frames.isEmpty())
        line->setGeometry(mirrored(frames.last()).toAlignedRect());
    content->resize(scroll->viewport()->width(), int(std::ceil(height)));
    if (contentHeight != height) {
        contentHeight = height;
        q->updateGeometry();
    }
    if (line->hasFocus())
        scroll->ensureWidgetVisible(line, 0, 0);
}

// ---- suggestions

void TagEditPrivate::updateSuggestions()
{
    if ((session->options.suggestions.isEmpty() && session->options.vault.isEmpty()) || session->draft.trimmed().isEmpty() || !line->hasFocus()) {
        hidePopup();
        return;
    }
    session->suggest(8, q, [this](const QList<FieldSession::Suggestion> &items) {
        popup->clear();
        popupChosen = false;
        for (const FieldSession::Suggestion &item : items) {
            auto *row = new QListWidgetItem(item.text, popup);
            QVariantList matches;
            for (const auto &[start, end] : item.matches)
                matches << QPoint(start, end);
            row->setData(MatchesRole, matches);
        }
        if (items.isEmpty() || !line->hasFocus()) {
            hidePopup();
            return;
        }
        // No row is current until Down or Up: a current row is reported to assistive
        // technology as the focus, and Orca would stop speaking the text's sentences.
        popup->setCurrentRow(-1);
        positionPopup();
        popup->show();
    });
}

void TagEditPrivate::positionPopup()
{
    const int rows = std::min(popup->count(), 8);
    const int rowHeight = popup->sizeHintForRow(0) > 0 ? popup->sizeHintForRow(0) : line->sizeHint().height();
    const QPoint at = line->mapToGlobal(QPoint(0, line->height()));
    popup->setGeometry(at.x(), at.y() + 2, std::max(160, line->width()), rows * rowHeight + 2 * popup->frameWidth());
}

void TagEditPrivate::hidePopup()
{
    session->cancelSuggest();
    const bool hadCurrent = popupChosen;
    popupChosen = false;
    popup->hide();
    if (hadCurrent && line->hasFocus()) {
        // Down/Up made a suggestion the accessible focus: give it back to the text.
        QAccessibleEvent focus(line, QAccessible::Focus);
        QAccessible::updateAccessibility(&focus);
    }
}

void TagEditPrivate::takeSuggestion(int row)
{
    if (row < 0 || row >= popup->count())
        return;
    const QString chosen = popup->item(row)->text();
    hidePopup();
    session->takeSuggestion(chosen);
    line->setFocus(Qt::OtherFocusReason);
}

// ---------------------------------------------------------------------------------------------
// TagEdit

TagEdit::TagEdit(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<TagEditPrivate>(this))
{
}

TagEdit::~TagEdit()
{
    // The children outlive the private part by a moment (QWidget deletes them later): nothing
    // they do while going may reach it.
    QObject::disconnect(d->focusConnection);
    d->line->removeEventFilter(this);
    d->scroll->viewport()->removeEventFilter(this);
    d->line->disconnect(this);
    d->session->disconnect(this);
    delete d->session;
}

QStringList TagEdit::tags() const { return d->session->tags; }
void TagEdit::setTags(const QStringList &tags) { d->session->setTags(tags); }
QString TagEdit::draft() const { return d->session->draft; }
QString TagEdit::prompt() const { return d->session->prompt(); }
void TagEdit::setPrompt(const QString &prompt)
{
    if (d->session->options.prompt == prompt)
        return;
    d->session->options.prompt = prompt;
    if (!prompt.isEmpty()) {
        d->line->setPlaceholderText(prompt);
        d->line->setAccessibleName(prompt);
    }
    d->session->optionChanged();
    Q_EMIT promptChanged();
}
// Every option goes to tagd (field/setOptions, or a re-open where tagd has no such method);
// a change is announced with the property's NOTIFY signal.
template<typename T>
static void setOption(TagEdit *q, FieldSession *session, T FieldSession::Options::*option, const T &value,
                      void (TagEdit::*changed)())
{
    if (session->options.*option == value)
        return;
    session->options.*option = value;
    session->optionChanged();
    Q_EMIT(q->*changed)();
}

QStringList TagEdit::separators() const { return d->session->options.separators; }
void TagEdit::setSeparators(const QStringList &s)
{
    setOption(this, d->session, &FieldSession::Options::separators, s, &TagEdit::separatorsChanged);
}
int TagEdit::maxTags() const { return d->session->options.maxTags; }
void TagEdit::setMaxTags(int n) { setOption(this, d->session, &FieldSession::Options::maxTags, n, &TagEdit::maxTagsChanged); }
int TagEdit::maxTagLength() const { return d->session->options.maxTagLength; }
void TagEdit::setMaxTagLength(int n)
{
    setOption(this, d->session, &FieldSession::Options::maxTagLength, n, &TagEdit::maxTagLengthChanged);
}
bool TagEdit::caseSensitive() const { return d->session->options.caseSensitive; }
void TagEdit::setCaseSensitive(bool on)
{
    setOption(this, d->session, &FieldSession::Options::caseSensitive, on, &TagEdit::caseSensitiveChanged);
}
QString TagEdit::pattern() const { return d->session->options.pattern; }
void TagEdit::setPattern(const QString &p) { setOption(this, d->session, &FieldSession::Options::pattern, p, &TagEdit::patternChanged); }
bool TagEdit::allowListEnabled() const { return d->session->options.allowList; }
void TagEdit::setAllowListEnabled(bool on)
{
    setOption(this, d->session, &FieldSession::Options::allowList, on, &TagEdit::allowListEnabledChanged);
}
QStringList TagEdit::denied() const { return d->session->options.denied; }
void TagEdit::setDenied(const QStringList &list)
{
    setOption(this, d->session, &FieldSession::Options::denied, list, &TagEdit::deniedChanged);
}
bool TagEdit::commitOnBlur() const { return d->session->options.commitOnBlur; }
void TagEdit::setCommitOnBlur(bool on)
{
    setOption(this, d->session, &FieldSession::Options::commitOnBlur, on, &TagEdit::commitOnBlurChanged);
}
int TagEdit::history() const { return d->session->options.history; }
void TagEdit::setHistory(int steps) { setOption(this, d->session, &FieldSession::Options::history, steps, &TagEdit::historyChanged); }
TagEdit::Transform TagEdit::transform() const { return Transform(d->session->options.transform); }
void TagEdit::setTransform(Transform t)
{
    setOption(this, d->session, &FieldSession::Options::transform, int(t), &TagEdit::transformChanged);
}
QStringList TagEdit::allowed() const { return d->session->options.allowed; }
void TagEdit::setAllowed(const QStringList &a)
{
    const bool enable = !d->session->options.allowList;
    d->session->options.allowList = true;
    if (d->session->options.allowed != a || enable) {
        d->session->options.allowed = a;
        d->session->optionChanged();
        Q_EMIT allowedChanged();
    }
    if (enable)
        Q_EMIT allowListEnabledChanged();
}
QStringList TagEdit::suggestions() const { return d->session->options.suggestions; }
void TagEdit::setSuggestions(const QStringList &s)
{
    if (d->session->options.suggestions == s)
        return;
    d->session->setSuggestions(s);
    Q_EMIT suggestionsChanged();
}
QString TagEdit::vault() const { return d->session->options.vault; }
void TagEdit::setVault(const QString &folder)
{
    if (folder == d->session->options.vault)
        return;
    d->session->setVault(folder);
    Q_EMIT vaultChanged();
}
TagEdit::BackspaceMode TagEdit::backspaceMode() const { return BackspaceMode(d->session->options.backspace); }
void TagEdit::setBackspaceMode(BackspaceMode m)
{
    setOption(this, d->session, &FieldSession::Options::backspace, int(m), &TagEdit::backspaceModeChanged);
}
int TagEdit::selectedIndex() const { return d->session->selected; }
bool TagEdit::canUndo() const { return d->session->canUndo; }
bool TagEdit::canRedo() const { return d->session->canRedo; }
QString TagEdit::announcement() const { return d->session->announcement; }
QString TagEdit::refusal() const { return d->session->refusal; }
QStringList TagEdit::flaggedTags() const { return d->session->flagged; }
QWidget *TagEdit::textWidget() const { return d->line; }

void TagEdit::addTags(const QStringList &tags) { d->session->addTags(tags); }
void TagEdit::removeTag(const QString &tag) { d->session->removeTag(tag); }
void TagEdit::undo() { d->session->request(u"field/undo"_s, d->session->fieldParams()); }
void TagEdit::redo() { d->session->request(u"field/redo"_s, d->session->fieldParams()); }

QSize TagEdit::sizeHint() const
{
    const QMargins m = layout()->contentsMargins();
    const int h = std::max(int(std::ceil(d->contentHeight)), d->line->sizeHint().height());
    return {320, h + m.top() + m.bottom() + d->messageHeight()};
}

QSize TagEdit::minimumSizeHint() const
{
    const QMargins m = layout()->contentsMargins();
    return {120, d->line->sizeHint().height() + m.top() + m.bottom() + d->messageHeight()};
}

void TagEdit::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    QStyleOptionFrame opt;
    opt.initFrom(this);
    const QMargins m = layout()->contentsMargins();
    opt.rect = QRect(0, 0, width(), d->scroll->geometry().bottom() + 1 + m.bottom());
    opt.lineWidth = style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &opt, this);
    opt.midLineWidth = 0;
    opt.state |= QStyle::State_Sunken;
    if (d->line->hasFocus())
        opt.state |= QStyle::State_HasFocus;
    style()->drawPrimitive(QStyle::PE_PanelLineEdit, &opt, &p, this);
}

bool TagEdit::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == d->scroll->viewport() && event->type() == QEvent::Resize) {
        if (d->scroll->viewport()->width() != d->lastWidth) {
            d->content->resize(d->scroll->viewport()->width(), d->content->height());
            d->requestLayout();
        }
    } else if (watched == d->line) {
        switch (event->type()) {
        case QEvent::KeyPress:
            if (d->session->filterKey(static_cast<QKeyEvent *>(event)))
                return true;
            break;
        case QEvent::FocusIn:
        case QEvent::FocusOut:
            update();
            if (event->type() == QEvent::FocusIn)
                d->updateSuggestions();
            break;
        case QEvent::Move:
        case QEvent::Resize:
            if (d->popup->isVisible())
                d->positionPopup();
            break;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void TagEdit::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange) {
        d->lastWidth = -1;
        d->requestLayout();
    }
    QWidget::changeEvent(event);
}

void TagEdit::focusInEvent(QFocusEvent *event)
{
    d->line->setFocus(event->reason());
}

} // namespace Tagd
