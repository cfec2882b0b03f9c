// SPDX-License-Identifier: MIT
//
// The entry owns its text (a frameless QLineEdit) and reports every change of it to tagd as a
// field/didChange, the way an editor reports its buffer (Protocol/sync.md). tagd answers when
// it likes with field/didUpdate: the tags, and edits that turn the text into the draft, stamped
// with the buffer version they were computed for. The edits are applied only if the buffer is
// still at that version, so a key typed while a reply is in flight is never lost and never
// becomes a tag twice. Requests (Return, chip keys, undo) are answered in order; while one is
// in flight, further keys are held and replayed once it is answered, so they act on what a
// slow typist would see.
//
// Layout: each chip is measured with QFontMetrics, the sizes go to field/layout, and chips and
// text are placed at the frames that come back (the text takes the rest of its line).

#include "TagdQt/tagedit.h"

#include "rpc_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtDBus/QDBusConnection>
#include <QtDBus/QDBusMessage>
#include <QtDBus/QDBusVariant>
#include <QtGui/QAccessible>
#include <QtGui/QFocusEvent>
#include <QtGui/QKeyEvent>
#include <QtGui/QPainter>
#include <QtWidgets/QApplication>
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

constexpr double ChipSpacing = 6;
constexpr int FlashMs = 900;

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

TagEdit::DropReason reasonOf(const QString &reason)
{
    static const QHash<QString, TagEdit::DropReason> reasons{
        {u"empty"_s, TagEdit::DropReason::Empty},
        {u"duplicate"_s, TagEdit::DropReason::Duplicate},
        {u"tooLong"_s, TagEdit::DropReason::TooLong},
        {u"tooMany"_s, TagEdit::DropReason::TooMany},
        {u"pattern"_s, TagEdit::DropReason::Pattern},
        {u"notAllowed"_s, TagEdit::DropReason::NotAllowed},
        {u"denied"_s, TagEdit::DropReason::Denied},
    };
    return reasons.value(reason, TagEdit::DropReason::Other);
}

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
        remove->setAccessibleName(u"Remove %1"_s.arg(tag));
        remove->setToolTip(remove->accessibleName());
        remove->setCursor(Qt::ArrowCursor);
    }

    QSizeF measure() const
    {
        const QFontMetricsF fm(font());
        const double button = buttonSize();
        return {std::ceil(pad() + fm.horizontalAdvance(tag) + pad() / 2 + button + pad() / 2),
                std::ceil(std::max(fm.height() + pad(), button + 4))};
    }

    void setSelected(bool on)
    {
        if (selected != on) {
            selected = on;
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
    bool placed = false;   // has a frame from tagd
    bool removing = false; // field/removeTag sent: hidden until tagd answers
    std::function<void()> onPress, onDoubleClick;

protected:
    double pad() const { return std::round(QFontMetricsF(font()).height() * 0.6); }
    int buttonSize() const { return int(std::ceil(QFontMetricsF(font()).height())); }

    void resizeEvent(QResizeEvent *) override
    {
        const int b = buttonSize();
        remove->setGeometry(width() - b - int(pad() / 2), (height() - b) / 2, b, b);
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QPalette &pal = palette();
        QColor fill = pal.color(QPalette::Text);
        fill.setAlphaF(0.1);
        QColor ink = pal.color(QPalette::Text);
        if (selected) {
            fill = pal.color(QPalette::Highlight);
            ink = pal.color(QPalette::HighlightedText);
        } else if (flashing) {
            fill = QColor(0xf5, 0xc2, 0x11, 0xb0);
        }
        const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        p.setPen(ink);
        const QRect textRect(int(pad()), 0, remove->x() - int(pad()) - int(pad() / 2), height());
        p.drawText(textRect, Qt::AlignVCenter | Qt::AlignLeft,
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

class TagEditPrivate : public Session
{
public:
    explicit TagEditPrivate(TagEdit *q);
    ~TagEditPrivate() override;

    // Session
    void tagdNotification(const QString &method, const QJsonObject &params) override;
    void tagdReopen() override { reopen(false); }

    QJsonObject options() const;
    void ensureOpen();
    void sendOpen();
    void reopen(bool closeOld);
    void optionChanged() { if (opened) reopen(true); }
    QJsonObject fieldParams() const { return {{u"field"_s, field}}; }

    void request(const QString &method, QJsonObject params);
    void applyState(const QJsonObject &state, int version, bool fromUpdate, bool announce = true);
    void applyOutcome(const QJsonObject &state);
    void announce(const QString &sentence);
    void handleUpdate(const QJsonObject &params);
    void onTextChanged();
    void sendChanges(const QJsonArray &changes, qint64 applied);

    bool handleKey(QKeyEvent *event);
    void replayHeldKeys();
    void select(int index);
    void rebuildChips();
    void requestLayout();
    void placeFromFrames(const QJsonArray &frames, double height);
    void updateSuggestions();
    void takeSuggestion(int row);
    void hidePopup();
    void positionPopup();

    TagEdit *const q;
    Rpc *const rpc;
    QScrollArea *scroll;
    QWidget *content;
    QLineEdit *text;
    QListWidget *popup;
    QList<Chip *> chips;

    // what tagd says
    QStringList tags;
    QStringList openTags; // the tags the next field/open carries
    QString draft;
    int selected = -1;
    bool canUndo = false, canRedo = false;
    QString announcement;
    int stateVersion = 0;
    int lastUpdateVersion = -1;
    QString lastUpdateAnnouncement;

    // options
    QString prompt;        // the application's, or empty: tagd's own (in the locale's language)
    QString tagdPrompt;    // the prompt tagd reports
    QStringList separators, allowed, denied, suggestions;
    bool allowList = false;
    int maxTags = -1, maxTagLength = -1, history = 100;
    bool caseSensitive = false, commitOnBlur = false;
    TagEdit::Transform transform = TagEdit::Transform::None;
    TagEdit::BackspaceMode backspace = TagEdit::BackspaceMode::Remove;
    QString pattern;

    // the session and the sync path
    QString field;
    bool opened = false;
    bool openQueued = false;
    QString mirror;        // the buffer as last reported
    qint64 version = 0;    // the buffer's version
    bool applying = false; // applying tagd's edits: not the user's change
    int busy = 0;          // requests in flight: keys wait for them
    QList<QKeyEvent *> held;
    bool bypass = false;

    // layout
    int layoutSerial = 0;
    double lastWidth = -1;
    double contentHeight = 0;
    int suggestSerial = 0;
    bool popupChosen = false; // Down/Up moved the highlight: Return takes it
    QMetaObject::Connection focusConnection;
};

TagEditPrivate::TagEditPrivate(TagEdit *q)
    : q(q)
    , rpc(Rpc::instance())
    , scroll(new QScrollArea(q))
    , content(new QWidget)
    , text(new QLineEdit(content))
    , popup(new QListWidget(q))
{
    auto *box = new QVBoxLayout(q);
    const int frame = q->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, q);
    box->setContentsMargins(frame + 2, frame + 2, frame + 2, frame + 2);
    box->addWidget(scroll);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    scroll->setWidgetResizable(false);
    scroll->setWidget(content);
    scroll->viewport()->setAutoFillBackground(false);
    content->setAutoFillBackground(false);
    scroll->viewport()->installEventFilter(q);

    text->setFrame(false);
    text->installEventFilter(q);
    text->setContextMenuPolicy(Qt::NoContextMenu); // its Undo would bypass tagd's history
    q->setFocusProxy(text);
    q->setFocusPolicy(Qt::StrongFocus);
    q->setAttribute(Qt::WA_InputMethodEnabled);
    // As tall as its lines (sizeHint), never taller; shorter when the window is, then it scrolls.
    q->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    scroll->setMinimumSize(0, 0);
    box->setSizeConstraint(QLayout::SetNoConstraint);
    QObject::connect(text, &QLineEdit::textChanged, q, [this] { onTextChanged(); });

    popup->setWindowFlags(Qt::ToolTip | Qt::FramelessWindowHint);
    popup->setAttribute(Qt::WA_ShowWithoutActivating);
    popup->setFocusPolicy(Qt::NoFocus);
    popup->setItemDelegate(new MatchDelegate(popup));
    popup->setAccessibleName(u"Suggestions"_s);
    popup->setUniformItemSizes(true);
    QObject::connect(popup, &QListWidget::itemClicked, q,
                     [this](QListWidgetItem *item) { takeSuggestion(popup->row(item)); });

    focusConnection = QObject::connect(qApp, &QApplication::focusChanged, q, [this](QWidget *old, QWidget *now) {
        const auto inside = [this](QWidget *w) { return w && (w == this->q || this->q->isAncestorOf(w)); };
        if (inside(old) && !inside(now)) {
            hidePopup();
            if (opened)
                request(u"field/blur"_s, fieldParams());
        }
    });

    field = rpc->addSession(u"entry"_s, this);
    openQueued = true;
    QTimer::singleShot(0, q, [this] { ensureOpen(); });
}

TagEditPrivate::~TagEditPrivate()
{
    qDeleteAll(held);
    rpc->removeSession(field);
    if (opened)
        rpc->call(u"field/close"_s, fieldParams(), rpc, [](const QJsonValue &, const RpcError &) {});
}

QJsonObject TagEditPrivate::options() const
{
    QJsonObject o;
    if (!prompt.isEmpty())
        o.insert(u"prompt"_s, prompt);
    if (!separators.isEmpty())
        o.insert(u"separators"_s, QJsonArray::fromStringList(separators));
    if (maxTags >= 0)
        o.insert(u"maxTags"_s, maxTags);
    if (maxTagLength >= 1)
        o.insert(u"maxTagLength"_s, maxTagLength);
    if (caseSensitive)
        o.insert(u"caseSensitive"_s, true);
    if (transform != TagEdit::Transform::None)
        o.insert(u"transform"_s, transform == TagEdit::Transform::Lowercase ? u"lowercase"_s : u"uppercase"_s);
    if (!pattern.isEmpty())
        o.insert(u"pattern"_s, pattern);
    if (allowList)
        o.insert(u"allow"_s, QJsonArray::fromStringList(allowed));
    if (!denied.isEmpty())
        o.insert(u"deny"_s, QJsonArray::fromStringList(denied));
    if (!suggestions.isEmpty())
        o.insert(u"suggestions"_s, QJsonArray::fromStringList(suggestions));
    if (backspace != TagEdit::BackspaceMode::Remove)
        o.insert(u"backspace"_s, backspace == TagEdit::BackspaceMode::Select ? u"select"_s : u"edit"_s);
    if (commitOnBlur)
        o.insert(u"commitOnBlur"_s, true);
    if (history != 100)
        o.insert(u"history"_s, history);
    return o;
}

void TagEditPrivate::ensureOpen()
{
    if (openQueued)
        sendOpen();
}

void TagEditPrivate::sendOpen()
{
    openQueued = false;
    opened = true;
    stateVersion = 0;
    lastUpdateVersion = -1;
    const QString id = field;
    QJsonObject params{{u"field"_s, field},
                       {u"tags"_s, QJsonArray::fromStringList(openTags)},
                       {u"text"_s, mirror},
                       {u"options"_s, options()},
                       {u"sync"_s, QJsonObject{{u"version"_s, version}}}};
    rpc->call(u"field/open"_s, params, q, [this, id](const QJsonValue &result, const RpcError &error) {
        if (error.restarted || id != field)
            return;
        if (error.isError()) {
            qWarning("tagd: field/open failed: %s (%d)", qPrintable(error.message), error.code);
            return;
        }
        // The open's outcome reports the initial tags: shown, not announced.
        applyState(result.toObject(), result.toObject().value(u"version"_s).toInt(), false, false);
    });
    lastWidth = -1;
    if (chips.size() == tags.size() && openTags == tags)
        requestLayout();
}

void TagEditPrivate::reopen(bool closeOld)
{
    if (closeOld && opened)
        rpc->call(u"field/close"_s, fieldParams(), q, [](const QJsonValue &, const RpcError &) {});
    field = rpc->renameSession(field, u"entry"_s);
    // Requests of the old session are answered (or dropped) without touching this one.
    busy = 0;
    if (!openQueued)
        sendOpen();
    replayHeldKeys();
}

void TagEditPrivate::request(const QString &method, QJsonObject params)
{
    ensureOpen();
    const QString id = field;
    ++busy;
    rpc->call(method, params, q, [this, id, method](const QJsonValue &result, const RpcError &error) {
        if (id != field)
            return; // an old session's answer (re-opened since): busy was reset then
        busy = std::max(0, busy - 1);
        if (!error.isError()) {
            const QJsonObject state = result.toObject();
            applyState(state, state.value(u"version"_s).toInt(), false);
        } else if (!error.restarted && !(method == u"field/removeTag"_s && error.code == -32602)) {
            // A refusal is a bug in this widget; a removal of a tag already gone is not.
            qWarning("tagd: %s failed: %s (%d)", qPrintable(method), qPrintable(error.message), error.code);
        }
        for (Chip *c : std::as_const(chips)) {
            if (c->removing) {
                c->removing = false;
                c->setVisible(c->placed);
            }
        }
        replayHeldKeys();
    });
}

// Takes what tagd says if it is newer than what is shown. An update (field/didUpdate) is written
// before the answer of the request that caused it, with the same state version; an answer that
// changed nothing (a duplicate from addTags, undo with nothing to undo) has no update, so its
// outcome is taken from the answer.
void TagEditPrivate::applyState(const QJsonObject &state, int v, bool fromUpdate, bool announceIt)
{
    const QString sentence = announceIt ? state.value(u"announcement"_s).toString() : QString();
    if (v <= stateVersion) {
        if (!fromUpdate && v == stateVersion && !sentence.isEmpty()
            && !(lastUpdateVersion == v && lastUpdateAnnouncement == sentence)) {
            applyOutcome(state);
            announce(sentence);
            lastUpdateVersion = v;
            lastUpdateAnnouncement = sentence;
        }
        return;
    }
    stateVersion = v;
    if (fromUpdate || !sentence.isEmpty()) {
        lastUpdateVersion = v;
        lastUpdateAnnouncement = sentence;
    }
    const QStringList newTags = stringsOf(state.value(u"tags"_s));
    const int newSelected = state.contains(u"selected"_s) ? state.value(u"selected"_s).toInt(-1) : -1;
    const bool undo = state.value(u"canUndo"_s).toBool(), redo = state.value(u"canRedo"_s).toBool();
    const QString newDraft = state.value(u"text"_s).toString();
    const QString newPrompt = state.value(u"prompt"_s).toString();
    if (!newPrompt.isEmpty() && newPrompt != tagdPrompt) {
        tagdPrompt = newPrompt;
        text->setPlaceholderText(newPrompt);
        text->setAccessibleName(newPrompt);
        Q_EMIT q->promptChanged();
    }
    const bool tagsChanged = newTags != tags;
    if (tagsChanged) {
        tags = newTags;
        openTags = newTags; // a re-open (tagd restarted, an option changed) carries what is shown
        rebuildChips();
    }
    if (newSelected != selected) {
        selected = newSelected;
        for (int i = 0; i < chips.size(); ++i)
            chips[i]->setSelected(i == selected);
        Q_EMIT q->selectedIndexChanged();
    }
    if (undo != canUndo || redo != canRedo) {
        canUndo = undo;
        canRedo = redo;
        Q_EMIT q->undoStateChanged();
    }
    const bool draftChanged = newDraft != draft;
    draft = newDraft;
    if (tagsChanged)
        Q_EMIT q->tagsChanged();
    if (draftChanged)
        Q_EMIT q->draftChanged();
    if (announceIt)
        applyOutcome(state);
    if (!sentence.isEmpty())
        announce(sentence);
    if (draftChanged || tagsChanged)
        updateSuggestions();
}

void TagEditPrivate::applyOutcome(const QJsonObject &state)
{
    const QJsonArray dropped = state.value(u"outcome"_s).toObject().value(u"dropped"_s).toArray();
    for (const QJsonValue &v : dropped) {
        const QJsonObject d = v.toObject();
        const TagEdit::DropReason reason = reasonOf(d.value(u"reason"_s).toString());
        const int index = reason == TagEdit::DropReason::Duplicate ? d.value(u"duplicateOf"_s).toInt(-1) : -1;
        if (index >= 0 && index < chips.size())
            chips[index]->flash();
        Q_EMIT q->tagDropped(d.value(u"text"_s).toString(), reason, index);
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
// spoken twice and nothing is read again when focus comes back.
static void announceToScreenReader(QWidget *focused, const QString &sentence)
{
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

void TagEditPrivate::announce(const QString &sentence)
{
    announcement = sentence;
    announceToScreenReader(text, sentence);
#if QT_VERSION < QT_VERSION_CHECK(6, 8, 0)
    QTimer::singleShot(0, text, [t = QPointer<QLineEdit>(text)] {
        if (t)
            announceToScreenReader(t, QString());
    });
#endif
    Q_EMIT q->announced(sentence);
}

void TagEditPrivate::tagdNotification(const QString &method, const QJsonObject &params)
{
    if (method == u"field/didUpdate"_s && params.value(u"field"_s).toString() == field)
        handleUpdate(params);
}

void TagEditPrivate::handleUpdate(const QJsonObject &params)
{
    const qint64 at = params.value(u"version"_s).toInteger(-1);
    if (params.value(u"resync"_s).toBool()) {
        // tagd's copy of the buffer diverged: send the whole text.
        ++version;
        sendChanges(QJsonArray{QJsonObject{{u"text"_s, mirror}}}, -1);
    } else if (at == version) {
        const QJsonArray edits = params.value(u"edits"_s).toArray();
        if (!edits.isEmpty()) {
            QString t = mirror;
            int cursor = text->cursorPosition();
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
            applying = true;
            text->setText(t);
            text->setCursorPosition(cursor);
            applying = false;
            mirror = t;
            ++version;
            sendChanges(changes, at);
        }
    }
    // Edits for an older buffer are ignored (tagd answers the newer change with a fresh
    // update); the state is taken either way.
    applyState(params, params.value(u"stateVersion"_s).toInt(), true);
}

void TagEditPrivate::sendChanges(const QJsonArray &changes, qint64 applied)
{
    if (!opened || openQueued)
        return; // the open carries the whole text at this version
    QJsonObject params{{u"field"_s, field}, {u"version"_s, version}, {u"contentChanges"_s, changes}};
    if (applied >= 0)
        params.insert(u"applied"_s, applied);
    rpc->notify(u"field/didChange"_s, params);
}

// One user change of the text (a key, a paste, a cut) is one contiguous replacement: the part
// before the cursor that is unchanged, and the part after it.
void TagEditPrivate::onTextChanged()
{
    if (applying)
        return;
    const QString now = text->text();
    const QString old = mirror;
    const int cursor = text->cursorPosition();
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
    mirror = now;
    ++version;
    sendChanges(QJsonArray{change}, -1);
    scroll->ensureWidgetVisible(text, 0, 0);
    // tagd sends no update for typing that commits nothing: the draft is then the text. An
    // update that follows (a separator was typed) corrects it.
    if (draft != now) {
        draft = now;
        Q_EMIT q->draftChanged();
    }
    updateSuggestions();
}

// ---- keys (SPEC §6a)

bool TagEditPrivate::handleKey(QKeyEvent *e)
{
    if (busy > 0 || (!held.isEmpty() && !bypass)) {
        held.append(new QKeyEvent(e->type(), e->key(), e->modifiers(), e->nativeScanCode(),
                                  e->nativeVirtualKey(), e->nativeModifiers(), e->text(),
                                  e->isAutoRepeat(), e->count()));
        return true;
    }
    const Qt::KeyboardModifiers mods = e->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::ShiftModifier | Qt::MetaModifier);
    const int key = e->key();
    const bool plain = mods == Qt::NoModifier || mods == Qt::KeypadModifier;
    const bool isReturn = key == Qt::Key_Return || key == Qt::Key_Enter;

    if (e->matches(QKeySequence::Undo)) {
        q->undo();
        return true;
    }
    if (e->matches(QKeySequence::Redo) || (key == Qt::Key_Z && mods == (Qt::ControlModifier | Qt::ShiftModifier))) {
        q->redo();
        return true;
    }
    if (popup->isVisible() && popup->count() > 0) {
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
        if (key == Qt::Key_Tab && plain && !text->text().isEmpty()) {
            takeSuggestion(popupChosen ? std::max(0, popup->currentRow()) : 0);
            return true;
        }
        if (isReturn && plain && popupChosen && popup->currentRow() >= 0) {
            takeSuggestion(popup->currentRow());
            return true;
        }
    }
    if (selected >= 0 && selected < tags.size()) {
        const int n = int(tags.size());
        if (key == Qt::Key_Left && (plain || mods == Qt::AltModifier)) {
            if (mods == Qt::AltModifier) {
                if (selected > 0)
                    request(u"field/moveTag"_s, {{u"field"_s, field}, {u"from"_s, selected}, {u"to"_s, selected - 1}});
            } else if (selected > 0) {
                select(selected - 1);
            }
            return true;
        }
        if (key == Qt::Key_Right && (plain || mods == Qt::AltModifier)) {
            if (mods == Qt::AltModifier) {
                if (selected < n - 1)
                    request(u"field/moveTag"_s, {{u"field"_s, field}, {u"from"_s, selected}, {u"to"_s, selected + 1}});
            } else {
                select(selected + 1 < n ? selected + 1 : -1);
            }
            return true;
        }
        if (isReturn && plain) {
            request(u"field/editTag"_s, {{u"field"_s, field}, {u"index"_s, selected}});
            return true;
        }
        if (key == Qt::Key_Backspace && plain) {
            request(u"field/deleteBackward"_s, fieldParams());
            return true;
        }
        if (key == Qt::Key_Delete && plain) {
            request(u"field/removeTag"_s, {{u"field"_s, field}, {u"index"_s, selected}});
            return true;
        }
        if (key == Qt::Key_Escape || key == Qt::Key_End || key == Qt::Key_Home) {
            select(key == Qt::Key_Home ? 0 : -1);
            return true;
        }
    }
    if (isReturn && plain) {
        request(u"field/submit"_s, fieldParams());
        return true;
    }
    // "Empty" is decided when the key is handled (Protocol/sync.md rule 3).
    if (key == Qt::Key_Backspace && plain && text->text().isEmpty()) {
        request(u"field/deleteBackward"_s, fieldParams());
        return true;
    }
    if (key == Qt::Key_Left && plain && !tags.isEmpty() && text->cursorPosition() == 0 && !text->hasSelectedText()) {
        select(int(tags.size()) - 1);
        return true;
    }
    return false;
}

void TagEditPrivate::replayHeldKeys()
{
    while (busy == 0 && !held.isEmpty()) {
        std::unique_ptr<QKeyEvent> e(held.takeFirst());
        bypass = true;
        const bool handled = handleKey(e.get());
        if (!handled)
            QCoreApplication::sendEvent(text, e.get());
        bypass = false;
    }
}

void TagEditPrivate::select(int index)
{
    request(u"field/select"_s, {{u"field"_s, field}, {u"index"_s, index >= 0 ? QJsonValue(index) : QJsonValue()}});
}

// ---- chips and layout

void TagEditPrivate::rebuildChips()
{
    QHash<QString, Chip *> old;
    for (Chip *c : std::as_const(chips))
        old.insert(c->tag, c);
    const bool chipHadFocus = QApplication::focusWidget() && content->isAncestorOf(QApplication::focusWidget())
                              && QApplication::focusWidget() != text;
    QList<Chip *> next;
    for (const QString &tag : std::as_const(tags)) {
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
                request(u"field/removeTag"_s, {{u"field"_s, field}, {u"tag"_s, guard->tag}});
                text->setFocus(Qt::OtherFocusReason);
            });
            chip->onPress = [this, guard] {
                if (guard)
                    select(int(chips.indexOf(guard.data())));
                text->setFocus(Qt::MouseFocusReason);
            };
            chip->onDoubleClick = [this, guard] {
                if (guard && chips.contains(guard.data()))
                    request(u"field/editTag"_s, {{u"field"_s, field}, {u"index"_s, int(chips.indexOf(guard.data()))}});
            };
        }
        chip->setSelected(false);
        next << chip;
    }
    qDeleteAll(old);
    chips = next;
    for (int i = 0; i < chips.size(); ++i) {
        chips[i]->setSelected(i == selected);
        // Tab order: the remove buttons in tag order, then the text.
        if (i > 0)
            QWidget::setTabOrder(chips[i - 1]->remove, chips[i]->remove);
    }
    if (!chips.isEmpty())
        QWidget::setTabOrder(chips.last()->remove, text);
    if (chipHadFocus)
        text->setFocus(Qt::OtherFocusReason);
    lastWidth = -1;
    requestLayout();
}

void TagEditPrivate::requestLayout()
{
    if (!opened)
        return;
    const double width = scroll->viewport()->width();
    QJsonArray sizes;
    for (Chip *c : std::as_const(chips)) {
        const QSizeF s = c->measure();
        sizes.append(QJsonObject{{u"width"_s, s.width()}, {u"height"_s, s.height()}});
    }
    const QFontMetrics fm(text->font());
    const double minWidth = std::max(96, fm.horizontalAdvance(q->prompt()) + 8);
    QJsonObject params{{u"field"_s, field},
                       {u"width"_s, width},
                       {u"chipSizes"_s, sizes},
                       {u"fieldHeight"_s, double(text->sizeHint().height())},
                       {u"spacing"_s, ChipSpacing},
                       {u"fieldMinWidth"_s, std::min(minWidth, std::max(1.0, width))}};
    lastWidth = width;
    const int serial = ++layoutSerial;
    const QString id = field;
    const QStringList forTags = tags;
    rpc->call(u"field/layout"_s, params, q, [this, serial, id, forTags](const QJsonValue &result, const RpcError &error) {
        if (serial != layoutSerial || id != field || forTags != tags)
            return; // a newer request is on its way
        if (error.isError()) {
            if (!error.restarted)
                qWarning("tagd: field/layout failed: %s", qPrintable(error.message));
            return;
        }
        const QJsonObject r = result.toObject();
        placeFromFrames(r.value(u"frames"_s).toArray(), r.value(u"size"_s).toObject().value(u"height"_s).toDouble());
    });
}

void TagEditPrivate::placeFromFrames(const QJsonArray &frames, double height)
{
    const auto rect = [](const QJsonValue &v) {
        const QJsonObject f = v.toObject();
        return QRectF(f.value(u"x"_s).toDouble(), f.value(u"y"_s).toDouble(), f.value(u"width"_s).toDouble(),
                      f.value(u"height"_s).toDouble())
            .toAlignedRect();
    };
    for (int i = 0; i < chips.size() && i < frames.size() - 1; ++i) {
        chips[i]->setGeometry(rect(frames[i]));
        chips[i]->placed = true;
        chips[i]->setVisible(!chips[i]->removing);
    }
    if (!frames.isEmpty())
        text->setGeometry(rect(frames.last()));
    content->resize(scroll->viewport()->width(), int(std::ceil(height)));
    if (contentHeight != height) {
        contentHeight = height;
        q->updateGeometry();
    }
    if (text->hasFocus())
        scroll->ensureWidgetVisible(text, 0, 0);
}

// ---- suggestions

void TagEditPrivate::updateSuggestions()
{
    if (suggestions.isEmpty() || draft.trimmed().isEmpty() || !text->hasFocus()) {
        hidePopup();
        return;
    }
    const int serial = ++suggestSerial;
    const QString id = field;
    rpc->call(u"field/suggest"_s, {{u"field"_s, field}, {u"limit"_s, 8}}, q,
              [this, serial, id](const QJsonValue &result, const RpcError &error) {
                  if (serial != suggestSerial || id != field || error.isError())
                      return;
                  const QJsonArray items = result.toObject().value(u"items"_s).toArray();
                  popup->clear();
                  popupChosen = false;
                  for (const QJsonValue &v : items) {
                      const QJsonObject item = v.toObject();
                      auto *row = new QListWidgetItem(item.value(u"text"_s).toString(), popup);
                      QVariantList matches;
                      for (const QJsonValue &m : item.value(u"matches"_s).toArray())
                          matches << QPoint(m.toObject().value(u"start"_s).toInt(), m.toObject().value(u"end"_s).toInt());
                      row->setData(MatchesRole, matches);
                  }
                  if (items.isEmpty() || !text->hasFocus()) {
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
    const int rowHeight = popup->sizeHintForRow(0) > 0 ? popup->sizeHintForRow(0) : text->sizeHint().height();
    const QPoint at = text->mapToGlobal(QPoint(0, text->height()));
    popup->setGeometry(at.x(), at.y() + 2, std::max(160, text->width()), rows * rowHeight + 2 * popup->frameWidth());
}

void TagEditPrivate::hidePopup()
{
    ++suggestSerial;
    const bool hadCurrent = popupChosen;
    popupChosen = false;
    popup->hide();
    if (hadCurrent && text->hasFocus()) {
        // Down/Up made a suggestion the accessible focus: give it back to the text.
        QAccessibleEvent focus(text, QAccessible::Focus);
        QAccessible::updateAccessibility(&focus);
    }
}

void TagEditPrivate::takeSuggestion(int row)
{
    if (row < 0 || row >= popup->count())
        return;
    const QString chosen = popup->item(row)->text();
    hidePopup();
    // The chosen text replaces the draft as if typed, and Return commits it: one path for every
    // rule, and tagd's undo history sees what the user saw.
    text->setText(chosen);
    request(u"field/submit"_s, fieldParams());
    text->setFocus(Qt::OtherFocusReason);
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
    d->text->removeEventFilter(this);
    d->scroll->viewport()->removeEventFilter(this);
    d->text->disconnect(this);
}

QStringList TagEdit::tags() const { return d->tags; }
void TagEdit::setTags(const QStringList &tags)
{
    d->openTags = tags;
    if (d->opened)
        d->reopen(true);
}
QString TagEdit::draft() const { return d->draft; }
QString TagEdit::prompt() const { return d->prompt.isEmpty() ? d->tagdPrompt : d->prompt; }
void TagEdit::setPrompt(const QString &prompt)
{
    if (d->prompt == prompt)
        return;
    d->prompt = prompt;
    if (!prompt.isEmpty()) {
        d->text->setPlaceholderText(prompt);
        d->text->setAccessibleName(prompt);
    }
    d->optionChanged();
    Q_EMIT promptChanged();
}
QStringList TagEdit::separators() const { return d->separators; }
void TagEdit::setSeparators(const QStringList &s) { d->separators = s; d->optionChanged(); }
int TagEdit::maxTags() const { return d->maxTags; }
void TagEdit::setMaxTags(int n) { d->maxTags = n; d->optionChanged(); }
int TagEdit::maxTagLength() const { return d->maxTagLength; }
void TagEdit::setMaxTagLength(int n) { d->maxTagLength = n; d->optionChanged(); }
bool TagEdit::caseSensitive() const { return d->caseSensitive; }
void TagEdit::setCaseSensitive(bool on) { d->caseSensitive = on; d->optionChanged(); }
TagEdit::Transform TagEdit::transform() const { return d->transform; }
void TagEdit::setTransform(Transform t) { d->transform = t; d->optionChanged(); }
QString TagEdit::pattern() const { return d->pattern; }
void TagEdit::setPattern(const QString &p) { d->pattern = p; d->optionChanged(); }
QStringList TagEdit::allowed() const { return d->allowed; }
void TagEdit::setAllowed(const QStringList &a) { d->allowed = a; d->allowList = true; d->optionChanged(); }
bool TagEdit::allowListEnabled() const { return d->allowList; }
void TagEdit::setAllowListEnabled(bool on) { d->allowList = on; d->optionChanged(); }
QStringList TagEdit::denied() const { return d->denied; }
void TagEdit::setDenied(const QStringList &list) { d->denied = list; d->optionChanged(); }
QStringList TagEdit::suggestions() const { return d->suggestions; }
void TagEdit::setSuggestions(const QStringList &s)
{
    d->suggestions = s;
    if (d->opened && !d->openQueued)
        d->rpc->call(u"field/setSuggestions"_s, {{u"field"_s, d->field}, {u"suggestions"_s, QJsonArray::fromStringList(s)}},
                     this, [](const QJsonValue &, const RpcError &) {});
}
TagEdit::BackspaceMode TagEdit::backspaceMode() const { return d->backspace; }
void TagEdit::setBackspaceMode(BackspaceMode m) { d->backspace = m; d->optionChanged(); }
bool TagEdit::commitOnBlur() const { return d->commitOnBlur; }
void TagEdit::setCommitOnBlur(bool on) { d->commitOnBlur = on; d->optionChanged(); }
int TagEdit::history() const { return d->history; }
void TagEdit::setHistory(int steps) { d->history = steps; d->optionChanged(); }
int TagEdit::selectedIndex() const { return d->selected; }
bool TagEdit::canUndo() const { return d->canUndo; }
bool TagEdit::canRedo() const { return d->canRedo; }
QString TagEdit::announcement() const { return d->announcement; }
QWidget *TagEdit::textWidget() const { return d->text; }

void TagEdit::addTags(const QStringList &tags)
{
    d->request(u"field/addTags"_s, {{u"field"_s, d->field}, {u"tags"_s, QJsonArray::fromStringList(tags)}});
}
void TagEdit::removeTag(const QString &tag)
{
    d->request(u"field/removeTag"_s, {{u"field"_s, d->field}, {u"tag"_s, tag}});
}
void TagEdit::undo() { d->request(u"field/undo"_s, d->fieldParams()); }
void TagEdit::redo() { d->request(u"field/redo"_s, d->fieldParams()); }

QSize TagEdit::sizeHint() const
{
    const QMargins m = layout()->contentsMargins();
    const int h = std::max(int(std::ceil(d->contentHeight)), d->text->sizeHint().height());
    return {320, h + m.top() + m.bottom()};
}

QSize TagEdit::minimumSizeHint() const
{
    const QMargins m = layout()->contentsMargins();
    return {120, d->text->sizeHint().height() + m.top() + m.bottom()};
}

void TagEdit::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    QStyleOptionFrame opt;
    opt.initFrom(this);
    opt.lineWidth = style()->pixelMetric(QStyle::PM_DefaultFrameWidth, &opt, this);
    opt.midLineWidth = 0;
    opt.state |= QStyle::State_Sunken;
    if (d->text->hasFocus())
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
    } else if (watched == d->text) {
        switch (event->type()) {
        case QEvent::KeyPress:
            if (!d->bypass && d->handleKey(static_cast<QKeyEvent *>(event)))
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
    d->text->setFocus(event->reason());
}

} // namespace Tagd
