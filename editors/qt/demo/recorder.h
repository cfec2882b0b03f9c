// SPDX-License-Identifier: MIT
//
// For the real-window tests (the widget demo's `props` command): which properties of the
// widgets have no NOTIFY signal, and which NOTIFY signals were emitted.

#pragma once

#include <QtCore/QMetaMethod>
#include <QtCore/QMetaProperty>
#include <QtCore/QObject>
#include <QtCore/QStringList>

namespace TagdDemo {

class NotifyRecorder : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    //! Records every NOTIFY signal of \a object's own properties (not QWidget's); returns the
    //! names of those without one.
    QStringList watch(QObject *object, const QString &name)
    {
        QStringList missing;
        const QMetaObject *meta = object->metaObject();
        const QMetaMethod slot = metaObject()->method(metaObject()->indexOfSlot("hit()"));
        for (int i = meta->superClass()->propertyCount(); i < meta->propertyCount(); ++i) {
            const QMetaProperty p = meta->property(i);
            if (p.hasNotifySignal())
                connect(object, p.notifySignal(), this, slot, Qt::UniqueConnection);
            else
                missing << name + QLatin1Char('.') + QString::fromLatin1(p.name());
        }
        return missing;
    }

    QStringList seen;

public Q_SLOTS:
    void hit()
    {
        seen << QString::fromLatin1(sender()->metaObject()->className()) + QLatin1Char('.')
                    + QString::fromLatin1(sender()->metaObject()->method(senderSignalIndex()).name());
    }
};

} // namespace TagdDemo
