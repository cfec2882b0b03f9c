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

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QMetaEnum>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>


using namespace Qt::StringLiterals;

namespace {

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
                {u"page"_s, window->property("page").toInt()}};
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

    QQmlApplicationEngine engine;
    // The build tree's module (editors/qt/_build/qml/Tagd), beside this program; an installed
    // module is on Qt's own import path already.
    engine.addImportPath(QCoreApplication::applicationDirPath() + u"/qml"_s);
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
