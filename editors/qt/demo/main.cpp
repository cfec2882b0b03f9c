// SPDX-License-Identifier: MIT
//
// tagd-qt-demo: both seed screens in one window, "Recipe tags" and "Pick your interests".
//
// Options: --tagd PATH (the tagd program), --no-animations (as when the desktop asks for reduced motion),
// --control (read commands on stdin, one per line, and answer each with one JSON line on
// stdout: `dump`, `set PROPERTY JSON` and `cloud PROPERTY JSON` (write a property of the
// entry or the cloud through Qt's meta-object system), `clip JSON-STRING` (own the clipboard with that text), `page N`, `shot FILE`, `pixel X Y`
// (the colour on screen there), `quit`). The
// real-window tests use --control to read the widgets' properties from outside.

#include <TagdQt/Connection>
#include <TagdQt/TagCloud>
#include <TagdQt/TagEdit>

#include "control.h"
#include "recorder.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaEnum>
#include <QtCore/QTextStream>
#include <QtWidgets/QApplication>
#include <QtGui/QClipboard>
#include <QtGui/QPainter>
#include <QtGui/QScreen>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QVBoxLayout>


using namespace Qt::StringLiterals;

namespace {

QLabel *heading(const QString &text)
{
    auto *label = new QLabel(text);
    QFont f = label->font();
    f.setPointSizeF(f.pointSizeF() * 1.6);
    f.setWeight(QFont::DemiBold); // the seed's semibold title (bold where the font has no semibold)
    label->setFont(f);
    return label;
}

const QColor Teal(48, 176, 199);

// A Suggested button: a teal-tinted capsule (ends fully round, radius = height / 2) with a plus
// before its label, as in the seed. A style sheet cannot say "half the height", so it paints itself.
class CapsuleButton : public QPushButton
{
public:
    explicit CapsuleButton(const QString &label)
        : QPushButton(label)
    {
        setCursor(Qt::PointingHandCursor);
    }

    QSize sizeHint() const override
    {
        const QFontMetrics fm(font());
        const int h = fm.height() + 10;
        return {h / 2 + plusSize() + 6 + fm.horizontalAdvance(text()) + h / 2, h};
    }
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    int plusSize() const { return QFontMetrics(font()).height() / 2 + 2; }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QRectF r = QRectF(rect()).adjusted(1, 1, -1, -1);
        const qreal radius = r.height() / 2;
        QColor fill = Teal;
        fill.setAlphaF(isDown() ? 0.4 : underMouse() ? 0.3 : 0.2);
        QColor edge = Teal;
        edge.setAlphaF(0.7);
        p.setBrush(fill);
        p.setPen(QPen(edge, 1));
        p.drawRoundedRect(r, radius, radius);
        if (hasFocus()) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(Teal, 2));
            p.drawRoundedRect(r.adjusted(0.5, 0.5, -0.5, -0.5), radius - 0.5, radius - 0.5);
        }
        const QColor ink = palette().color(QPalette::ButtonText);
        const qreal s = plusSize(), x = height() / 2.0, cy = height() / 2.0;
        p.setPen(QPen(Teal.darker(130), 1.6, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(QPointF(x, cy), QPointF(x + s, cy));
        p.drawLine(QPointF(x + s / 2, cy - s / 2), QPointF(x + s / 2, cy + s / 2));
        p.setPen(ink);
        p.drawText(QRectF(x + s + 6, 0, width(), height()), Qt::AlignLeft | Qt::AlignVCenter, text());
    }
};

// "Tight spacing": a switch, as in the seed (a check box underneath, so assistive technology
// sees a checkable control named by its label). A track with a knob, green when on.
class Switch : public QCheckBox
{
public:
    using QCheckBox::QCheckBox;

    QSize sizeHint() const override
    {
        const QFontMetrics fm(font());
        return {TrackWidth + 8 + fm.horizontalAdvance(text()) + 2, std::max(TrackHeight + 4, fm.height())};
    }

protected:
    static constexpr int TrackWidth = 38, TrackHeight = 22;

    bool hitButton(const QPoint &pos) const override { return rect().contains(pos); }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QRectF track(1, (height() - TrackHeight) / 2.0, TrackWidth, TrackHeight);
        p.setPen(hasFocus() ? QPen(palette().color(QPalette::Highlight), 2) : Qt::NoPen);
        p.setBrush(isChecked() ? QColor(0x30, 0xd1, 0x58) : QColor(0x78, 0x78, 0x80, 0xa0));
        p.drawRoundedRect(track, TrackHeight / 2.0, TrackHeight / 2.0);
        const qreal d = TrackHeight - 4;
        const qreal x = isChecked() ? track.right() - 2 - d : track.left() + 2;
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        p.drawEllipse(QRectF(x, track.top() + 2, d, d));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(TrackWidth + 8, 0, width(), height()), Qt::AlignLeft | Qt::AlignVCenter, text());
    }
};

class Demo : public QMainWindow
{
public:
    Demo()
    {
        setWindowTitle(u"Tags"_s);
        tabs = new QTabWidget;
        setCentralWidget(tabs);

        // "Recipe tags"
        auto *recipe = new QWidget;
        auto *rl = new QVBoxLayout(recipe);
        rl->setContentsMargins(24, 20, 24, 20);
        rl->addWidget(heading(u"Recipe tags"_s));
        rl->addWidget(new QLabel(u"Press return or type a comma to add one"_s));
        entry = new Tagd::TagEdit;
        entry->setTags({u"vegan"_s, u"dinner"_s, u"weeknight"_s});
        entry->setSuggestions({u"spicy"_s, u"gluten-free"_s, u"30 minutes"_s, u"one pot"_s, u"vegetarian"_s,
                               u"breakfast"_s, u"dessert"_s, u"quick"_s, u"family"_s, u"soup"_s});
        rl->addWidget(entry);
        auto *suggested = new QLabel(u"Suggested"_s);
        suggested->setContentsMargins(0, 8, 0, 0);
        rl->addWidget(suggested);
        auto *row = new QHBoxLayout;
        for (const QString &tag : {u"spicy"_s, u"gluten-free"_s, u"30 minutes"_s, u"one pot"_s}) {
            auto *b = new CapsuleButton(tag);
            b->setAccessibleName(u"Add %1"_s.arg(tag));
            b->setFocusPolicy(Qt::TabFocus);
            connect(b, &QPushButton::clicked, entry, [this, tag] { entry->addTags({tag}); });
            row->addWidget(b);
            suggestions.append({tag, b});
        }
        row->addStretch();
        rl->addLayout(row);
        rl->addStretch();
        tabs->addTab(recipe, u"Recipe tags"_s);
        connect(entry, &Tagd::TagEdit::tagsChanged, this, &Demo::updateSuggested);
        connect(entry, &Tagd::TagEdit::announced, this, [this](const QString &s) {
            announcements << s;
            statusBar()->showMessage(s, 5000);
        });
        connect(entry, &Tagd::TagEdit::tagDropped, this, [this](const QString &text, Tagd::TagEdit::DropReason r, int i) {
            dropped.append(QJsonObject{{u"text"_s, text},
                                       {u"reason"_s, QString::fromLatin1(QMetaEnum::fromType<Tagd::TagEdit::DropReason>().valueToKey(int(r)))},
                                       {u"index"_s, i}});
        });

        // "Pick your interests": the seed's dark page
        auto *interests = new QWidget;
        interests->setAutoFillBackground(true);
        QPalette dark = interests->palette();
        dark.setColor(QPalette::Window, QColor(0x1c, 0x1c, 0x1e));
        dark.setColor(QPalette::WindowText, QColor(0xf2, 0xf2, 0xf7));
        dark.setColor(QPalette::Text, QColor(0xf2, 0xf2, 0xf7));
        dark.setColor(QPalette::Base, QColor(0x2c, 0x2c, 0x2e));
        dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3c));
        dark.setColor(QPalette::ButtonText, QColor(0xf2, 0xf2, 0xf7));
        interests->setPalette(dark);
        auto *il = new QVBoxLayout(interests);
        il->setContentsMargins(24, 20, 24, 20);
        il->addWidget(heading(u"Pick your interests"_s));
        cloud = new Tagd::TagCloud;
        const QList<std::pair<QString, QColor>> tags{
            {u"SwiftUI"_s, QColor(0x0a, 0x84, 0xff)},   {u"Animation"_s, QColor(0xff, 0x37, 0x5f)},
            {u"Layout"_s, QColor(0xff, 0x9f, 0x0a)},    {u"Glass"_s, QColor(0x40, 0xc8, 0xe0)},
            {u"Gestures"_s, QColor(0xbf, 0x5a, 0xf2)},  {u"Symbols"_s, QColor(0x30, 0xd1, 0x58)},
            {u"Charts"_s, QColor(0xff, 0x45, 0x3a)},    {u"Navigation"_s, QColor(0x5e, 0x5c, 0xe6)},
            {u"Metal"_s, QColor(0x66, 0xd4, 0xcf)},     {u"Widgets"_s, QColor(0xff, 0xd6, 0x0a)}};
        QStringList titles;
        QList<QColor> tints;
        for (const auto &[t, c] : tags) {
            titles << t;
            tints << c;
        }
        cloud->setTags(titles, tints);
        cloud->setSelection({u"SwiftUI"_s});
        cloud->setSpacing(18);
        cloud->setSelectedOpacity(0.85);
        cloud->setUnselectedOpacity(0.3);
        il->addWidget(cloud);
        // The width of every layout the cloud applied, and whether it was on screen then (a test reads it).
        connect(cloud, &Tagd::TagCloud::laidOut, this, [this] {
            cloudLayouts.append(QJsonArray{cloud->width(), cloud->isVisible()});
        });
        tight = new Switch(u"Tight spacing"_s);
        connect(tight, &QCheckBox::toggled, cloud, [this](bool on) { cloud->setSpacing(on ? 3 : 18); });
        il->addWidget(tight);
        il->addStretch();
        tabs->addTab(interests, u"Pick your interests"_s);

        statusBar()->showMessage(u"Ready"_s);
        resize(640, 420);
        entry->setFocus(Qt::OtherFocusReason);
        updateSuggested();
    }

    void updateSuggested()
    {
        const QStringList tags = entry->tags();
        for (const auto &[tag, button] : std::as_const(suggestions))
            button->setVisible(!tags.contains(tag, Qt::CaseInsensitive));
    }

    QJsonObject dump() const
    {
        QJsonArray groups;
        for (const QList<int> &g : cloud->groups()) {
            QJsonArray members;
            for (int i : g)
                members.append(i);
            groups.append(members);
        }
        QJsonArray frames;
        for (const QList<qreal> &xs : cloud->animationFrames()) {
            QJsonArray a;
            for (qreal x : xs)
                a.append(x);
            frames.append(a);
        }
        auto *c = Tagd::Connection::instance();
        return {{u"tags"_s, QJsonArray::fromStringList(entry->tags())},
                {u"draft"_s, entry->draft()},
                {u"selected"_s, entry->selectedIndex()},
                {u"canUndo"_s, entry->canUndo()},
                {u"canRedo"_s, entry->canRedo()},
                {u"announcements"_s, QJsonArray::fromStringList(announcements)},
                {u"flagged"_s, QJsonArray::fromStringList(entry->flaggedTags())},
                {u"refusal"_s, entry->refusal()},
                {u"dropped"_s, dropped},
                {u"selection"_s, QJsonArray::fromStringList(cloud->selection())},
                {u"groups"_s, groups},
                {u"animating"_s, cloud->isAnimating()},
                {u"animationFrames"_s, frames},
                {u"spacing"_s, cloud->spacing()},
                {u"cloudLayouts"_s, cloudLayouts},
                {u"pid"_s, c->processId()},
                {u"restarts"_s, c->restartCount()},
                {u"language"_s, c->language()},
                {u"page"_s, tabs->currentIndex()}};
    }

    QJsonObject command(const QString &line)
    {
        const QString verb = line.section(u' ', 0, 0);
        const QString rest = line.section(u' ', 1);
        if (verb == u"dump"_s)
            return dump();
        if (verb == u"set"_s || verb == u"cloud"_s) {
            QObject *target = verb == u"set"_s ? static_cast<QObject *>(entry) : cloud;
            const QString name = rest.section(u' ', 0, 0);
            const QJsonDocument doc = QJsonDocument::fromJson("[" + rest.section(u' ', 1).toUtf8() + "]");
            const QVariant value = doc.array().first().toVariant();
            const bool ok = target->setProperty(name.toUtf8().constData(), value);
            return {{u"ok"_s, ok}};
        }
        if (verb == u"props"_s) { // properties without NOTIFY, and the NOTIFY signals seen so far
            const QStringList missing = recorder.watch(entry, u"TagEdit"_s) + recorder.watch(cloud, u"TagCloud"_s)
                                        + recorder.watch(Tagd::Connection::instance(), u"Connection"_s);
            return {{u"missing"_s, QJsonArray::fromStringList(missing)},
                    {u"notified"_s, QJsonArray::fromStringList(recorder.seen)}};
        }
        if (verb == u"page"_s) {
            tabs->setCurrentIndex(rest.toInt());
            return {{u"ok"_s, true}};
        }
        if (verb == u"clip"_s) { // the clipboard's text, as JSON (a real paste reads it)
            const QJsonDocument doc = QJsonDocument::fromJson("[" + rest.toUtf8() + "]");
            QApplication::clipboard()->setText(doc.array().first().toString());
            return {{u"ok"_s, true}};
        }
        if (verb == u"shot"_s) { // what the screen shows: the window and any popup over it
            QRect area = frameGeometry();
            for (QWidget *w : QApplication::topLevelWidgets())
                if (w->isVisible())
                    area = area.united(w->frameGeometry());
            return {{u"ok"_s, screen()->grabWindow(0, area.x(), area.y(), area.width(), area.height()).save(rest)}};
        }
        if (verb == u"pixel"_s) { // the colour on screen at X Y (screen coordinates)
            const QImage one = screen()->grabWindow(0, rest.section(u' ', 0, 0).toInt(), rest.section(u' ', 1, 1).toInt(), 1, 1).toImage();
            const QColor c = one.pixelColor(0, 0);
            return {{u"rgb"_s, QJsonArray{c.red(), c.green(), c.blue()}}};
        }
        if (verb == u"quit"_s) {
            QApplication::quit();
            return {{u"ok"_s, true}};
        }
        return {{u"error"_s, u"unknown command: "_s + line}};
    }

    Tagd::TagEdit *entry;
    Tagd::TagCloud *cloud;
    QCheckBox *tight;
    QTabWidget *tabs;
    QList<std::pair<QString, QPushButton *>> suggestions;
    QStringList announcements;
    QJsonArray dropped;
    QJsonArray cloudLayouts;
    TagdDemo::NotifyRecorder recorder;
};

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    app.setApplicationName(u"tagd-qt-demo"_s);
    const bool control = TagdDemo::parseOptions(app, u"The TagdQt widgets on the two seed screens."_s);

    Demo demo;
    demo.show();
    if (control)
        TagdDemo::serveControl(app, [&demo](const QString &line) { return demo.command(line); });
    return app.exec();
}
