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
#include "notefile.h"
#include "recorder.h"

#include <QtCore/QJsonArray>
#include <QtGui/QFontInfo>
#include <QtGui/QFontMetricsF>

#include <cmath>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QFile>
#include <QtCore/QFileInfo>
#include <QtCore/QMetaEnum>
#include <QtCore/QSaveFile>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtCore/QTextStream>
#include <QtWidgets/QApplication>
#include <QtGui/QClipboard>
#include <QtGui/QPainter>
#include <QtGui/QScreen>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QHBoxLayout>
#include <QtWidgets/QLabel>
#include <QtWidgets/QListWidget>
#include <QtWidgets/QMainWindow>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QScrollArea>
#include <QtWidgets/QStatusBar>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QVBoxLayout>


using namespace Qt::StringLiterals;

namespace {

// The seed's subtitle and captions: the text colour at 60 % (secondary), not the full colour.
QLabel *subtitle(const QString &text)
{
    auto *label = new QLabel(text);
    QPalette pal = label->palette();
    QColor c = pal.color(QPalette::WindowText);
    c.setAlphaF(0.6);
    pal.setColor(QPalette::WindowText, c);
    label->setPalette(pal);
    label->setObjectName(QStringLiteral("subtitle"));
    return label;
}

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
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    static constexpr int TrackWidth = 38, TrackHeight = 22;

    bool hitButton(const QPoint &pos) const override { return rect().contains(pos); }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        // As the seed's toggle: the label leading, the switch at the trailing edge of the row.
        const bool rtl = isRightToLeft();
        const QRectF track(rtl ? 1 : width() - TrackWidth - 1, (height() - TrackHeight) / 2.0, TrackWidth, TrackHeight);
        p.setPen(hasFocus() ? QPen(palette().color(QPalette::Highlight), 2) : Qt::NoPen);
        p.setBrush(isChecked() ? QColor(0x30, 0xd1, 0x58) : QColor(0x8e, 0x8e, 0x93));
        p.drawRoundedRect(track, TrackHeight / 2.0, TrackHeight / 2.0);
        const qreal d = TrackHeight - 4;
        const qreal x = isChecked() ? track.right() - 2 - d : track.left() + 2;
        p.setPen(Qt::NoPen);
        p.setBrush(Qt::white);
        p.drawEllipse(QRectF(x, track.top() + 2, d, d));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRectF(rtl ? TrackWidth + 8 : 0, 0, width() - TrackWidth - 8, height()),
                   Qt::AlignLeading | Qt::AlignVCenter, text());
    }
};

// The seed's field: corners of 14 points, a faint fill (the text colour at 6 % over the page)
// and, with focus, a 2-point teal border. The widget draws the platform's line-edit frame; the
// demo paints the seed's instead (paintEvent is the widget's to override).
class SeedTagEdit : public Tagd::TagEdit
{
public:
    SeedTagEdit()
    {
        QPalette pal = palette();
        pal.setColor(QPalette::Highlight, Teal); // chips: teal at 16 %; a selected chip: teal
        setPalette(pal);
        QPalette text = textWidget()->palette();
        text.setColor(QPalette::Base, Qt::transparent); // the fill is the field's, not the text's
        textWidget()->setPalette(text);
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        QColor fill = palette().color(QPalette::Text);
        fill.setAlphaF(0.06);
        const bool focused = textWidget()->hasFocus();
        QColor edge = focused ? Teal : palette().color(QPalette::Text);
        if (!focused)
            edge.setAlphaF(0.15);
        const qreal w = focused ? 2 : 1;
        // Only the field: the refusal line below it is outside the frame.
        const int bottom = findChild<QScrollArea *>()->geometry().bottom() + 1 + layout()->contentsMargins().bottom();
        const QRectF r = QRectF(0, 0, width(), bottom).adjusted(w / 2, w / 2, -w / 2, -w / 2);
        p.setPen(QPen(edge, w));
        p.setBrush(fill);
        p.drawRoundedRect(r, 14, 14);
    }
};

// The interests page: the seed's dark indigo fading to black, top to bottom.
class GradientPage : public QWidget
{
protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        QLinearGradient g(0, 0, 0, height());
        g.setColorAt(0, QColor(0x23, 0x1f, 0x5c)); // dark indigo
        g.setColorAt(1, Qt::black);
        p.fillRect(rect(), g);
    }
};

// "Notes": a notes app on a folder of Markdown notes (SPEC §6d). The cloud shows the folder's
// tags, most used first; its selection lists the notes carrying every selected tag; the entry
// edits the picked note's tags, written into its front matter with tagd's document/setTags edits.
class NotesPage : public QWidget
{
public:
    explicit NotesPage(const QString &folder)
    {
        auto *l = new QVBoxLayout(this);
        l->setContentsMargins(24, 20, 24, 20);
        l->addWidget(heading(QCoreApplication::translate("TagdDemo", "Notes")));
        l->addWidget(subtitle(folder.isEmpty() ? QCoreApplication::translate("TagdDemo", "Start the demo with --vault DIR to see a folder's notes.")
                                               : QCoreApplication::translate("TagdDemo", "Select tags to find the notes that carry them.")));
        cloud = new Tagd::TagCloud;
        cloud->setAccessibleName(QCoreApplication::translate("TagdDemo", "Tags of the notes"));
        l->addWidget(cloud);
        list = new QListWidget;
        list->setAccessibleName(QCoreApplication::translate("TagdDemo", "Notes with the selected tags"));
        l->addWidget(list, 1);
        l->addWidget(new QLabel(QCoreApplication::translate("TagdDemo", "Tags of the picked note")));
        entry = new SeedTagEdit;
        entry->setEnabled(false);
        l->addWidget(entry);
        if (folder.isEmpty())
            return;
        cloud->setVault(folder);
        entry->setVault(folder);
        connect(cloud, &Tagd::TagCloud::notesChanged, this, &NotesPage::showNotes);
        connect(list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
            if (item)
                pick(item->data(Qt::UserRole).toString());
        });
        connect(entry, &Tagd::TagEdit::tagsChanged, this, &NotesPage::tagsEdited);
    }

    static QString noteName(const QString &path) { return QFileInfo(path).completeBaseName(); }

    void showNotes()
    {
        // Each note shown by its title (noteTitles(), in the order of notes()), picked by its file.
        const QString picked = note;
        const QStringList uris = cloud->notes();
        const QStringList titles = cloud->noteTitles();
        list->clear();
        for (qsizetype i = 0; i < uris.size(); ++i) {
            const QString path = QUrl(uris[i]).toLocalFile();
            auto *item = new QListWidgetItem(titles.value(i), list);
            item->setData(Qt::UserRole, path);
            if (path == picked)
                list->setCurrentItem(item);
        }
    }

    // The note's tags into the entry. Until the entry shows them, its changes are not the
    // user's edits of this note (a late change of the note before must not be written here).
    void pick(const QString &path)
    {
        note = path;
        armed = false;
        TagdDemo::noteTags(path, this, [this, path](const QStringList &tags) {
            if (path != note)
                return;
            loaded = tags;
            entry->setEnabled(true);
            armed = entry->tags() == loaded;
            entry->setTags(loaded);
        });
    }

    void tagsEdited()
    {
        if (note.isEmpty())
            return;
        if (!armed) {
            armed = entry->tags() == loaded;
            return;
        }
        // tagd sees the change (inotify) on its own, typically within a second.
        TagdDemo::setNoteTags(note, entry->tags(), this, [this] {
            QTimer::singleShot(300, cloud, [this] { cloud->reloadVault(); });
            QTimer::singleShot(1500, cloud, [this] { cloud->reloadVault(); });
        });
    }

    QJsonObject dump() const
    {
        QStringList names;
        for (int i = 0; i < list->count(); ++i)
            names << list->item(i)->text();
        return {{u"tags"_s, QJsonArray::fromStringList(cloud->titles())},
                {u"selection"_s, QJsonArray::fromStringList(cloud->selection())},
                {u"notes"_s, QJsonArray::fromStringList(names)},
                {u"note"_s, noteName(note)},
                {u"noteTags"_s, QJsonArray::fromStringList(entry->tags())}};
    }

    Tagd::TagCloud *cloud;
    QListWidget *list;
    SeedTagEdit *entry;
    QString note;
    QStringList loaded;
    bool armed = false;
};

// The demo's words are translated in the context "TagdDemo" (demo/i18n/tagd_demo_<lang>.ts,
// shared with the QML demo's qsTranslate).
class Demo : public QMainWindow
{
public:
    Demo()
    {
        setWindowTitle(QCoreApplication::translate("TagdDemo", "Tags"));
        tabs = new QTabWidget;
        setCentralWidget(tabs);

        // "Recipe tags"
        auto *recipe = new QWidget;
        auto *rl = new QVBoxLayout(recipe);
        rl->setContentsMargins(24, 20, 24, 20);
        rl->addWidget(heading(QCoreApplication::translate("TagdDemo", "Recipe tags")));
        rl->addWidget(recipeSubtitle = subtitle(QCoreApplication::translate("TagdDemo", "Press return or type a comma to add one")));
        entry = new SeedTagEdit;
        entry->setTags({u"vegan"_s, u"dinner"_s, u"weeknight"_s});
        entry->setSuggestions({u"spicy"_s, u"gluten-free"_s, u"30 minutes"_s, u"one pot"_s, u"vegetarian"_s,
                               u"breakfast"_s, u"dessert"_s, u"quick"_s, u"family"_s, u"soup"_s});
        rl->addWidget(entry);
        auto *suggested = new QLabel(QCoreApplication::translate("TagdDemo", "Suggested"));
        suggested->setContentsMargins(0, 8, 0, 0);
        rl->addWidget(suggested);
        auto *row = new QHBoxLayout;
        for (const QString &tag : {u"spicy"_s, u"gluten-free"_s, u"30 minutes"_s, u"one pot"_s}) {
            auto *b = new CapsuleButton(tag);
            b->setAccessibleName(QCoreApplication::translate("TagdDemo", "Add %1").arg(tag));
            b->setFocusPolicy(Qt::TabFocus);
            connect(b, &QPushButton::clicked, entry, [this, tag] { entry->addTags({tag}); });
            row->addWidget(b);
            suggestions.append({tag, b});
        }
        row->addStretch();
        rl->addLayout(row);
        rl->addStretch();
        tabs->addTab(recipe, QCoreApplication::translate("TagdDemo", "Recipe tags"));
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
        interests = new GradientPage;
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
        il->addWidget(interestsTitle = heading(QCoreApplication::translate("TagdDemo", "Pick your interests")));
        il->addWidget(subtitle(QCoreApplication::translate("TagdDemo", "Select the topics you follow. Close tags melt together.")));
        // The switch sits above the cloud, as in the seed: the cloud's height changes while it
        // animates, and nothing above it moves.
        tight = new Switch(QCoreApplication::translate("TagdDemo", "Tight spacing"));
        il->addWidget(tight);
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
        connect(tight, &QCheckBox::toggled, cloud, [this](bool on) { cloud->setSpacing(on ? 3 : 18); });
        il->addStretch();
        tabs->addTab(interests, QCoreApplication::translate("TagdDemo", "Pick your interests"));

        notes = new NotesPage(TagdDemo::vaultFolder());
        tabs->addTab(notes, QCoreApplication::translate("TagdDemo", "Notes"));

        statusBar()->showMessage(QCoreApplication::translate("TagdDemo", "Ready"));
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

    static QJsonArray rectOf(const QWidget *w, int height = -1)
    {
        const QPoint at = w->mapToGlobal(QPoint(0, 0));
        return {at.x(), at.y(), w->width(), height < 0 ? w->height() : height};
    }

    // Where the seed's elements are, in logical screen coordinates (the tests read pixels there).
    QJsonObject rects() const
    {
        QJsonArray chips, tags;
        for (QWidget *w : entry->textWidget()->parentWidget()->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
            if (w != entry->textWidget() && w->isVisible())
                chips.append(QJsonArray{w->accessibleName(), rectOf(w)});
        for (QAbstractButton *b : cloud->findChildren<QAbstractButton *>(QString(), Qt::FindDirectChildrenOnly))
            if (b->isVisible()) // a tag crossing others mid-animation is hidden
                tags.append(QJsonArray{b->text(), rectOf(b)});
        const QWidget *scroll = entry->findChild<QScrollArea *>();
        const int frameHeight = scroll->geometry().bottom() + 1 + entry->layout()->contentsMargins().bottom();
        return {{u"entry"_s, rectOf(entry, frameHeight)}, {u"text"_s, rectOf(entry->textWidget())},
                {u"rtl"_s, isRightToLeft()}, {u"subtitle"_s, rectOf(recipeSubtitle)},
                {u"recipe"_s, rectOf(tabs->widget(0))}, {u"interests"_s, rectOf(interests)},
                {u"switch"_s, rectOf(tight)}, {u"interestsTitle"_s, rectOf(interestsTitle)}, {u"cloud"_s, rectOf(cloud)}, {u"chips"_s, chips}, {u"tags"_s, tags},
                {u"dpr"_s, devicePixelRatioF()}};
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
                {u"page"_s, tabs->currentIndex()},
                {u"notes"_s, notes->dump()}};
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
        if (verb == u"rects"_s)
            return rects();
        if (verb == u"toggle"_s) { // toggle TITLE: as a click on a cloud tag
            cloud->toggle(rest);
            return {{u"ok"_s, true}};
        }
        if (verb == u"grab"_s) { // grab X Y W H FILE: that part of the screen, as a PPM image in device pixels
            const QStringList a = rest.split(u' ');
            const QImage image = screen()->grabWindow(0, a[0].toInt(), a[1].toInt(), a[2].toInt(), a[3].toInt()).toImage();
            return {{u"ok"_s, image.convertToFormat(QImage::Format_RGB888).save(a[4], "PPM")},
                    {u"width"_s, image.width()}, {u"height"_s, image.height()}};
        }
        if (verb == u"ink"_s) { // ink tag|heading WEIGHT TEXT: the ink of TEXT drawn black on white in
            // that font at WEIGHT, at the screen's scale, in device pixels (the sum of each pixel's
            // darkness): what a test compares a title on screen with
            QFont f = rest.section(u' ', 0, 0) == u"heading"_s ? interestsTitle->font() : cloud->font();
            f.setWeight(QFont::Weight(rest.section(u' ', 1, 1).toInt()));
            const double ink = TagdDemo::textInk(f, rest.section(u' ', 2), devicePixelRatioF());
            return {{u"ink"_s, ink}, {u"family"_s, QFontInfo(f).family()}, {u"styleName"_s, QFontInfo(f).styleName()}};
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
    QWidget *interests;
    NotesPage *notes;
    QLabel *recipeSubtitle;
    QLabel *interestsTitle;
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
