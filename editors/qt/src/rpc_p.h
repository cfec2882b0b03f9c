// SPDX-License-Identifier: MIT
// Internal: the JSON-RPC link to the shared tagd child. Not installed.
#pragma once

#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QJsonValue>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QProcess>
#include <QtCore/QStringList>
#include <QtCore/QTimer>

#include <functional>

namespace Tagd {

//! A widget's session in tagd (a field or a cloud).
class Session
{
public:
    virtual ~Session() = default;
    //! A server notification (field/didUpdate) naming this session's id.
    virtual void tagdNotification(const QString &method, const QJsonObject &params) = 0;
    //! tagd was started again: open a new session from the widget's own state.
    virtual void tagdReopen() = 0;
};

struct RpcError
{
    int code = 0;
    QString message;
    bool restarted = false; //!< the child died before answering
    bool isError() const { return code != 0 || restarted; }
};

class Rpc : public QObject
{
    Q_OBJECT
public:
    using Callback = std::function<void(const QJsonValue &result, const RpcError &error)>;

    static Rpc *instance();

    //! Sends a request; \a callback runs on the answer unless \a context is gone by then.
    void call(const QString &method, const QJsonObject &params, QObject *context, Callback callback);
    void notify(const QString &method, const QJsonObject &params);

    //! Registers a session and returns its new id (prefix plus a number).
    QString addSession(const QString &prefix, Session *session);
    //! Gives a registered session a new id (used to re-open it): late messages for the old id
    //! are then never mistaken for the new session's.
    QString renameSession(const QString &oldId, const QString &prefix);
    void removeSession(const QString &id);

    bool isUp() const { return m_up; }
    //! tagd died and is being started again: sessions re-open once it answers initialize.
    bool isRestarting() const { return m_ever && !m_up && !m_gaveUp; }
    bool supports(const QString &method) const { return m_methods.contains(method); }

    // Connection's state
    QString program;
    bool reducedMotion = false;
    int restarts = 0;
    QString language;
    qint64 pid() const;
    void programChanged() { m_gaveUp = false; } // a new program may start
    QString resolveProgram() const;

    //! Names a folder of notes to tagd as a vault (a workspace folder, SPEC §6d): given with
    //! \c initialize, and to a running tagd with \c workspace/didChangeWorkspaceFolders, sent
    //! before any later request. Each folder is named once; a restarted tagd gets them all.
    void addVault(const QString &folder);
    //! A folder's \c file:// URI as tagd names notes inside it.
    static QString folderUri(const QString &folder);

Q_SIGNALS:
    void started();
    //! tagd kept dying before it answered initialize: no restart is coming.
    void gaveUp();

private:
    explicit Rpc(QObject *parent = nullptr);
    void ensureStarted();
    void spawn();
    void onReadyRead();
    void onFinished();
    void handleMessage(const QJsonObject &message);
    void write(const QJsonObject &message);
    void shutdown();
    void failPending();

    struct Pending
    {
        QPointer<QObject> context;
        Callback callback;
    };

    QProcess *m_proc = nullptr;
    int m_generation = 0;
    bool m_up = false;
    bool m_ever = false;
    bool m_gaveUp = false;
    int m_quickDeaths = 0;
    qint64 m_nextId = 1;
    QHash<qint64, Pending> m_pending;
    QHash<QString, Session *> m_sessions;
    int m_nextSession = 0;
    QStringList m_methods;
    QStringList m_vaults;
    QTimer m_respawn;
    QByteArray m_buffer;
};

} // namespace Tagd
