// SPDX-License-Identifier: MIT
// Built by tests/install-check and debian/tests/qml against nothing but Qt: loads a scene that imports Tagd 1.0 with
// QQmlApplicationEngine (so from Qt's QML import path, or QML_IMPORT_PATH) and prints what the
// TagEdit and the TagCloud say once tagd has opened them. Exits 1 if the module does not load.
#include <QtCore/QTimer>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlComponent>

#include <cstdio>

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    QQmlApplicationEngine engine;
    engine.loadData(R"(
import QtQuick
import Tagd 1.0
Item {
    width: 300; height: 100
    TagEdit { objectName: "entry"; width: 300; tags: ["one", "two", "one"] }
    TagCloud { objectName: "cloud"; width: 300; titles: ["a", "b"]; selection: ["b"] }
}
)");
    if (engine.rootObjects().isEmpty())
        return 1;
    QObject *root = engine.rootObjects().first();
    QObject *entry = root->findChild<QObject *>(QStringLiteral("entry"));
    QObject *cloud = root->findChild<QObject *>(QStringLiteral("cloud"));
    int rc = 1;
    QObject::connect(entry, SIGNAL(tagsChanged()), &app, SLOT(quit()));
    QTimer::singleShot(10000, &app, &QCoreApplication::quit);
    app.exec();
    const QStringList tags = entry->property("tags").toStringList();
    const QStringList selection = cloud->property("selection").toStringList();
    std::printf("Tagd QML: %s; %s\n", qPrintable(tags.join(QLatin1Char(','))), qPrintable(selection.join(QLatin1Char(','))));
    rc = tags == QStringList{QStringLiteral("one"), QStringLiteral("two")} ? 0 : 1;
    return rc;
}
