// SPDX-License-Identifier: MIT
//
// tagd-qml-demo: both seed screens in one Qt Quick window (Main.qml), with the Tagd 1.0 QML
// module's TagEdit and TagCloud.
//
// Options: --tagd PATH (the tagd program), --no-animations (as when the desktop asks for reduced
// motion), --control (read commands on stdin, one per line, and answer each with one JSON line
// on stdout: `dump`, `set PROPERTY JSON` / `cloud PROPERTY JSON` (write a property of the entry
// or the cloud), `page N`, `shot FILE`, `quit`). The real-window tests use --control to read the
// items' properties from outside. The module is found beside the program (qml/, as the build
// tree has it) or on the QML import path (an installed module).

#include <TagdQt/Connection>

#include "../control.h"
#include "notefiles.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaEnum>
#include <QtGui/QGuiApplication>
#include <QtGui/QFontInfo>
#include <QtGui/QFontMetricsF>
#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QPalette>
#include <QtGui/QScreen>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlContext>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

#include <cmath>


using namespace Qt::StringLiterals;

namespace {

// Every item under root in the visual tree (the items' content is not their QObject child).
QList<QQuickItem *> itemsUnder(QQuickItem *root)
{
    QList<QQuickItem *> out;
    for (QQuickItem *child : root->childItems())
        out << child << itemsUnder(child);
    return out;
}

QQuickItem *named(QQuickItem *root, const QString &name)
{
    for (QQuickItem *i : itemsUnder(root))
        if (i->objectName() == name)
            return i;
    return nullptr;
}

QJsonArray rectOf(const QQuickItem *item)
{
    if (!item)
        return {};
    const QPointF at = item->mapToGlobal(QPointF(0, 0));
    return {qRound(at.x()), qRound(at.y()), qRound(item->width()), qRound(item->height())};
}

// Where the seed's elements are, in logical screen coordinates (the tests read pixels there).
QJsonObject rects(QQuickWindow *window)
{
    QQuickItem *root = window->contentItem();
    QQuickItem *entry = named(root, u"entry"_s);
    QQuickItem *cloud = named(root, u"cloud"_s);
    QJsonArray chips, tags;
    const QList<QQuickItem *> inEntry = itemsUnder(entry);
    for (const QQuickItem *i : inEntry) {
        const QVariantMap chip = i->property("modelData").toMap();
        if (chip.contains(u"tag"_s) && i->isVisible())
            chips.append(QJsonArray{chip.value(u"tag"_s).toString(), rectOf(i)});
    }
    const QList<QQuickItem *> inCloud = itemsUnder(cloud);
    for (const QQuickItem *i : inCloud)
        if (i->property("frame").isValid() && i->property("modelData").userType() == QMetaType::QString && i->isVisible())
            tags.append(QJsonArray{i->property("modelData").toString(), rectOf(i)});
    QQuickItem *input = named(entry, u"tagdInput"_s);
    return {{u"entry"_s, rectOf(entry)}, {u"text"_s, rectOf(input)},
            {u"rtl"_s, QGuiApplication::layoutDirection() == Qt::RightToLeft},
            {u"subtitle"_s, rectOf(named(root, u"subtitle"_s))}, {u"interests"_s, rectOf(named(root, u"interests"_s))},
            {u"switch"_s, rectOf(named(root, u"tight"_s))}, {u"interestsTitle"_s, rectOf(named(root, u"interestsTitle"_s))}, {u"cloud"_s, rectOf(cloud)},
            {u"chips"_s, chips}, {u"tags"_s, tags}, {u"dpr"_s, window->devicePixelRatio()}};
}

// The Notes page: the vault's tags, the notes listed (by their titles), the note picked and its tags.
QJsonObject notesPage(QQuickWindow *window)
{
    QObject *page = window->findChild<QObject *>(u"notesPage"_s);
    QObject *cloud = window->findChild<QObject *>(u"notesCloud"_s);
    QObject *entry = window->findChild<QObject *>(u"noteEntry"_s);
    if (!page || !cloud || !entry)
        return {};
    return {{u"tags"_s, QJsonArray::fromStringList(cloud->property("titles").toStringList())},
            {u"notes"_s, QJsonArray::fromStringList(page->property("names").toStringList())},
            {u"note"_s, page->property("noteName").toString()},
            {u"noteTags"_s, QJsonArray::fromStringList(entry->property("tags").toStringList())}};
}

QJsonObject command(QQuickWindow *window, const QString &line)
{
    QObject *entry = window->findChild<QObject *>(u"entry"_s);
    QObject *cloud = window->findChild<QObject *>(u"cloud"_s);
    const QString verb = line.section(u' ', 0, 0);
    const QString rest = line.section(u' ', 1);
    if (verb == u"dump"_s) {
        auto *c = Tagd::Connection::instance();
        // tagDropped's reason by its enum key, as the widget demo reports it
        const QMetaObject *meta = entry->metaObject();
        const QMetaEnum reasons = meta->enumerator(meta->indexOfEnumerator("DropReason"));
        QJsonArray dropped;
        for (const QVariant &v : window->property("dropped").toList()) {
            QVariantMap drop = v.toMap();
            drop[u"reason"_s] = QString::fromLatin1(reasons.valueToKey(drop.value(u"reason"_s).toInt()));
            dropped.append(QJsonObject::fromVariantMap(drop));
        }
        return {{u"tags"_s, QJsonArray::fromStringList(entry->property("tags").toStringList())},
                {u"draft"_s, entry->property("draft").toString()},
                {u"selected"_s, entry->property("selectedIndex").toInt()},
                {u"canUndo"_s, entry->property("canUndo").toBool()},
                {u"canRedo"_s, entry->property("canRedo").toBool()},
                {u"announcement"_s, entry->property("announcement").toString()},
                {u"announcements"_s, QJsonArray::fromVariantList(window->property("announcements").toList())},
                {u"flagged"_s, QJsonArray::fromStringList(entry->property("flaggedTags").toStringList())},
                {u"refusal"_s, entry->property("refusal").toString()},
                {u"dropped"_s, dropped},
                {u"selection"_s, QJsonArray::fromStringList(cloud->property("selection").toStringList())},
                {u"groups"_s, QJsonArray::fromVariantList(cloud->property("groups").toList())},
                {u"spacing"_s, cloud->property("spacing").toDouble()},
                {u"animating"_s, cloud->property("animating").toBool()},
                {u"pid"_s, c->processId()},
                {u"restarts"_s, c->restartCount()},
                {u"page"_s, window->property("page").toInt()},
                {u"cloudTitles"_s, QJsonArray::fromStringList(cloud->property("titles").toStringList())},
                {u"notes"_s, QJsonArray::fromStringList(cloud->property("notes").toStringList())},
                {u"noteTitles"_s, QJsonArray::fromStringList(cloud->property("noteTitles").toStringList())},
                {u"notesPage"_s, notesPage(window)}};
    }
    if (verb == u"set"_s || verb == u"cloud"_s) {
        QObject *target = verb == u"set"_s ? entry : cloud;
        const QString name = rest.section(u' ', 0, 0);
        const QJsonDocument doc = QJsonDocument::fromJson("[" + rest.section(u' ', 1).toUtf8() + "]");
        return {{u"ok"_s, target->setProperty(name.toUtf8().constData(), doc.array().first().toVariant())}};
    }
    if (verb == u"page"_s)
        return {{u"ok"_s, window->setProperty("page", rest.toInt())}};
    if (verb == u"shot"_s)
        return {{u"ok"_s, window->grabWindow().save(rest)}};
    if (verb == u"rects"_s)
        return rects(window);
    if (verb == u"toggle"_s) { // toggle TITLE: as a click on a cloud tag
        QMetaObject::invokeMethod(cloud, "toggle", Q_ARG(QString, rest));
        return {{u"ok"_s, true}};
    }
    if (verb == u"grab"_s) { // grab X Y W H FILE: that part of the screen, as a PPM image in device pixels
        const QStringList a = rest.split(u' ');
        const QImage image =
            window->screen()->grabWindow(0, a[0].toInt(), a[1].toInt(), a[2].toInt(), a[3].toInt()).toImage();
        return {{u"ok"_s, image.convertToFormat(QImage::Format_RGB888).save(a[4], "PPM")},
                {u"width"_s, image.width()}, {u"height"_s, image.height()}};
    }
    if (verb == u"pixel"_s) { // the colour on screen at X Y (screen coordinates)
        const QImage one = window->screen()
                               ->grabWindow(0, rest.section(u' ', 0, 0).toInt(), rest.section(u' ', 1, 1).toInt(), 1, 1)
                               .toImage();
        const QColor c = one.pixelColor(0, 0);
        return {{u"rgb"_s, QJsonArray{c.red(), c.green(), c.blue()}}};
    }
    if (verb == u"ink"_s) { // ink tag|heading WEIGHT TEXT: as the widget demo's (demo/main.cpp)
        QQuickItem *heading = named(window->contentItem(), u"interestsTitle"_s);
        QFont f = (rest.section(u' ', 0, 0) == u"heading"_s && heading ? heading : cloud)->property("font").value<QFont>();
        f.setWeight(QFont::Weight(rest.section(u' ', 1, 1).toInt()));
        const double ink = TagdDemo::textInk(f, rest.section(u' ', 2), window->devicePixelRatio());
        return {{u"ink"_s, ink}, {u"styleName"_s, QFontInfo(f).styleName()}};
    }
    if (verb == u"quit"_s) {
        QGuiApplication::quit();
        return {{u"ok"_s, true}};
    }
    return {{u"error"_s, u"unknown command: "_s + line}};
}

} // namespace

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    app.setApplicationName(u"tagd-qml-demo"_s);
    const bool control = TagdDemo::parseOptions(app, u"The Tagd 1.0 QML items on the two seed screens."_s);

    {
        // The seed's accent: teal chips (at 16 %), a teal focus border, teal selection.
        QPalette palette = QGuiApplication::palette();
        palette.setColor(QPalette::Highlight, QColor(48, 176, 199));
        QGuiApplication::setPalette(palette);
    }
    QQmlApplicationEngine engine;
    // The build tree's module (editors/qt/_build/qml/Tagd), beside this program; an installed
    // module is on Qt's own import path already.
    engine.addImportPath(QCoreApplication::applicationDirPath() + u"/qml"_s);
    NoteFiles noteFiles;
    engine.rootContext()->setContextProperty(u"noteFiles"_s, &noteFiles);
    engine.load(QUrl(u"qrc:/qt/qml/TagdDemo/Main.qml"_s));
    if (engine.rootObjects().isEmpty())
        return 1;
    auto *window = qobject_cast<QQuickWindow *>(engine.rootObjects().first());
    if (!window)
        return 1;

    if (control)
        TagdDemo::serveControl(app, [window](const QString &line) { return command(window, line); });
    return app.exec();
}
