// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QString>
#include <QtCore/QStringList>

#include "tagdqt_global.h"

#include <functional>

namespace Tagd {

/*!
 * The application's one tagd child, shared by every TagEdit and TagCloud.
 *
 * It is started with QProcess when the first widget needs it and spoken to in JSON-RPC.
 * The program is, in this order: program() if set, \c $TAGD, \c tagd on \c PATH, and last
 * the repository's own \c .build/debug/tagd (or release), looked for above the directory the
 * library was loaded from (so a build tree inside a tagd checkout finds it).
 */
class TAGDQT_EXPORT Connection : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString program READ program WRITE setProgram NOTIFY programChanged)
    Q_PROPERTY(qint64 processId READ processId NOTIFY started)
    Q_PROPERTY(int restartCount READ restartCount NOTIFY started)
    Q_PROPERTY(QString language READ language NOTIFY started)
    Q_PROPERTY(bool reducedMotion READ reducedMotion WRITE setReducedMotion NOTIFY reducedMotionChanged)

public:
    static Connection *instance();

    QString program() const;
    //! Sets the tagd executable; takes effect the next time a child is started.
    void setProgram(const QString &program);

    //! The process id of the running child, or 0.
    qint64 processId() const;
    //! How often the child died and was started again.
    int restartCount() const;
    //! The language tagd speaks its announcements in (from \c initialize), empty before.
    QString language() const;
    //! The program that will be (or was) started, after the lookup described above.
    QString resolvedProgram() const;

    //! No animations: sent to tagd with \c initialize (no in-between frames), and the default
    //! of TagCloud::animated. Defaults to what the desktop says: KDE's AnimationDurationFactor
    //! 0 (kdeglobals) or gtk-enable-animations=false (GTK's settings.ini). Set it before the
    //! first widget is created.
    bool reducedMotion() const;
    void setReducedMotion(bool reduced);

    //! Sends any other request to the shared tagd (\c document/tags, \c document/setTags,
    //! \c vault/notes, ...). \a done runs with the result, or with tagd's error message (a
    //! child that died before answering says "tagd restarted"), unless \a context is gone.
    void call(const QString &method, const QJsonObject &params, QObject *context,
              std::function<void(const QJsonValue &result, const QString &error)> done);

Q_SIGNALS:
    void programChanged();
    void reducedMotionChanged();
    //! A child answered \c initialize (the first one, or one started after a death).
    void started();

private:
    explicit Connection(QObject *parent = nullptr);
    friend class Rpc;
};

} // namespace Tagd
