// SPDX-License-Identifier: MIT
//
// How the module's items get their content: each C++ item (TagEdit, TagCloud) builds its
// visible parts from an internal QML file of the module, with the item itself as a property.

#pragma once

#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QtQuick/QQuickItem>

namespace Tagd {

// Creates the content `file` (a qrc URL) with `property` set to `owner` and parents it to
// `owner`; nullptr, with a warning naming `type`, when there is no engine or the file fails.
inline QQuickItem *loadContent(QQuickItem *owner, const char *type, const QString &file, const QString &property)
{
    QQmlEngine *engine = qmlEngine(owner);
    if (!engine) {
        qWarning("%s: no QML engine, so nothing to show", type);
        return nullptr;
    }
    QQmlComponent component(engine, QUrl(file));
    QObject *object = component.createWithInitialProperties({{property, QVariant::fromValue(owner)}}, qmlContext(owner));
    auto *content = qobject_cast<QQuickItem *>(object);
    if (!content) {
        qWarning("%s: %s", type, qPrintable(component.errorString()));
        delete object;
        return nullptr;
    }
    content->setParentItem(owner);
    return content;
}

} // namespace Tagd
