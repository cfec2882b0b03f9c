// SPDX-License-Identifier: MIT
//
// The shared tagd child, spoken to in JSON-RPC 2.0 over its stdin and stdout with one JSON text
// per line (tagd's NDJSON framing, chosen by the first byte), built and read with
// QJsonDocument. Every widget of the application is a session on this one child, the way an
// editor shares one language-server process between its documents. When the child dies it is
// started again and every session re-opens itself from its widget's own state.

#include "rpc_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QLocale>
#include <QtCore/QSettings>
#include <QtCore/QUrl>
#include <QtCore/QStandardPaths>
#include <QtWidgets/QApplication>

#include <dlfcn.h>

namespace Tagd {

// Whether the desktop asks for no animations. Qt 6.4 has no such hint (QApplication's UI
// effects are off on every platform without a desktop theme, so they cannot say it): KDE's
// AnimationDurationFactor 0 in kdeglobals, or gtk-enable-animations=false in GTK's
// settings.ini (the switch non-GNOME desktops write), both under $XDG_CONFIG_HOME.
static bool platformReducedMotion()
{
    const QString config = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation);
    const QSettings kde(config + QStringLiteral("/kdeglobals"), QSettings::IniFormat);
    const QVariant factor = kde.value(QStringLiteral("KDE/AnimationDurationFactor"));
    if (factor.isValid() && factor.toDouble() == 0)
        return true;
    for (const char *gtk : {"/gtk-4.0/settings.ini", "/gtk-3.0/settings.ini"}) {
        const QSettings ini(config + QString::fromLatin1(gtk), QSettings::IniFormat);
        const QString on = ini.value(QStringLiteral("Settings/gtk-enable-animations")).toString().toLower();
        if (on == QStringLiteral("false") || on == QStringLiteral("0"))
            return true;
    }
    return false;
}

Rpc *Rpc::instance()
{
    static Rpc *rpc = nullptr;
    if (!rpc) {
        rpc = new Rpc(QCoreApplication::instance());
    }
    return rpc;
}

Rpc::Rpc(QObject *parent)
    : QObject(parent)
{
    reducedMotion = platformReducedMotion();
    m_respawn.setSingleShot(true);
    connect(&m_respawn, &QTimer::timeout, this, &Rpc::spawn);
    connect(QCoreApplication::instance(), &QCoreApplication::aboutToQuit, this, &Rpc::shutdown);
}

// The directory this library was loaded from (dladdr on one of its own functions).
static QString libraryDirectory()
{
    Dl_info info;
    if (dladdr(reinterpret_cast<void *>(&libraryDirectory), &info) && info.dli_fname)
        return QFileInfo(QString::fromLocal8Bit(info.dli_fname)).absolutePath();
    return {};
}

QString Rpc::resolveProgram() const
{
    if (!program.isEmpty())
        return program;
    const QString env = qEnvironmentVariable("TAGD");
    if (!env.isEmpty())
        return env;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("tagd"));
    if (!onPath.isEmpty())
        return onPath;
    // A build tree inside a tagd checkout (editors/qt/<build>/): the checkout's own tagd.
    QDir dir(libraryDirectory());
    for (int up = 0; up < 6 && !dir.isRoot(); ++up) {
        if (QFileInfo::exists(dir.filePath(QStringLiteral("Package.swift")))) {
            for (const char *build : {".build/debug/tagd", ".build/release/tagd"}) {
                const QFileInfo candidate(dir.filePath(QString::fromLatin1(build)));
                if (candidate.isExecutable())
                    return candidate.absoluteFilePath();
            }
        }
        if (!dir.cdUp())
            break;
    }
    return QStringLiteral("tagd");
}

QString Rpc::folderUri(const QString &folder)
{
    return QUrl::fromLocalFile(QDir(folder).absolutePath()).toString(QUrl::FullyEncoded);
}

static QJsonArray workspaceFolders(const QStringList &folders)
{
    QJsonArray array;
    for (const QString &folder : folders)
        array.append(QJsonObject{{QStringLiteral("uri"), Rpc::folderUri(folder)},
                                 {QStringLiteral("name"), QFileInfo(folder).fileName()}});
    return array;
}

void Rpc::addVault(const QString &folder)
{
    const QString path = QDir(folder).absolutePath();
    if (folder.isEmpty() || m_vaults.contains(path))
        return;
    m_vaults << path;
    // A child already started has had initialize written: the folder follows it on the pipe,
    // so tagd reads it before any request written after this one. No child yet: spawn() names
    // every folder in initialize.
    if (m_proc)
        notify(QStringLiteral("workspace/didChangeWorkspaceFolders"),
               {{QStringLiteral("event"),
                 QJsonObject{{QStringLiteral("added"), workspaceFolders({path})},
                             {QStringLiteral("removed"), QJsonArray()}}}});
}

qint64 Rpc::pid() const
{
    return m_proc ? m_proc->processId() : 0;
}

void Rpc::ensureStarted()
{
    if (!m_proc && !m_respawn.isActive() && !m_gaveUp)
        spawn();
}

void Rpc::spawn()
{
    ++m_generation;
    m_up = false;
    m_buffer.clear();
    const QString prog = resolveProgram();
    auto *proc = new QProcess(this);
    m_proc = proc;
    proc->setReadChannel(QProcess::StandardOutput);
    proc->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    connect(proc, &QProcess::readyReadStandardOutput, this, [this, proc] {
        if (proc == m_proc)
            onReadyRead();
    });
    connect(proc, &QProcess::finished, this, [this, proc] {
        if (proc == m_proc)
            onFinished();
        proc->deleteLater();
    });
    connect(proc, &QProcess::errorOccurred, this, [this, proc, prog](QProcess::ProcessError error) {
        if (proc != m_proc || error != QProcess::FailedToStart)
            return;
        qWarning("tagd: cannot start %s: %s", qPrintable(prog), qPrintable(proc->errorString()));
        m_gaveUp = true;
        m_proc = nullptr;
        failPending();
        proc->deleteLater();
    });
    proc->start(prog, {});

    const int generation = m_generation;
    QJsonObject params{
        {QStringLiteral("processId"), QCoreApplication::applicationPid()},
        {QStringLiteral("clientInfo"),
         QJsonObject{{QStringLiteral("name"), QStringLiteral("TagdQt")},
                     {QStringLiteral("version"), QStringLiteral("1.0.0")}}},
        // LSP's locale: tagd speaks its announcements in the application's language.
        {QStringLiteral("locale"), QLocale().name()},
        // QString counts UTF-16 code units: positions need no conversion.
        {QStringLiteral("capabilities"),
         QJsonObject{{QStringLiteral("general"),
                      QJsonObject{{QStringLiteral("positionEncodings"),
                                   QJsonArray{QStringLiteral("utf-16")}}}}}},
        {QStringLiteral("initializationOptions"),
         QJsonObject{{QStringLiteral("reducedMotion"), reducedMotion}}},
    };
    if (!m_vaults.isEmpty())
        params.insert(QStringLiteral("workspaceFolders"), workspaceFolders(m_vaults));
    call(QStringLiteral("initialize"), params, this,
         [this, generation](const QJsonValue &result, const RpcError &error) {
             if (generation != m_generation || error.isError())
                 return;
             const QJsonObject r = result.toObject();
             m_methods.clear();
             for (const QJsonValue &m : r.value(QStringLiteral("capabilities"))
                                            .toObject()
                                            .value(QStringLiteral("methods"))
                                            .toArray())
                 m_methods << m.toString();
             language = r.value(QStringLiteral("language")).toString();
             m_up = true;
             m_quickDeaths = 0;
             notify(QStringLiteral("initialized"), {});
             const bool restart = m_ever;
             m_ever = true;
             if (restart) {
                 // Re-opening renames sessions: collect first.
                 const QList<Session *> sessions = m_sessions.values();
                 for (Session *s : sessions) {
                     if (m_sessions.key(s).isEmpty())
                         continue;
                     s->tagdReopen();
                 }
             }
             Q_EMIT started();
         });
}

void Rpc::failPending()
{
    const auto pending = std::exchange(m_pending, {});
    RpcError restarted;
    restarted.restarted = true;
    restarted.message = QStringLiteral("tagd restarted");
    for (const Pending &p : pending) {
        if (p.context)
            p.callback(QJsonValue(), restarted);
    }
}

void Rpc::onFinished()
{
    if (!m_up)
        ++m_quickDeaths;
    m_up = false;
    ++restarts;
    ++m_generation;
    m_proc = nullptr;
    // Decided before the pending calls are failed: their callbacks ask isRestarting() to know
    // whether to keep a request for the re-opened session.
    m_gaveUp = m_quickDeaths > 8;
    failPending();
    if (m_gaveUp) {
        qWarning("tagd keeps dying before it answers initialize; giving up (program: %s)",
                 qPrintable(resolveProgram()));
        Q_EMIT gaveUp();
        return;
    }
    m_respawn.start(50 << std::min(m_quickDeaths, 5));
}

void Rpc::onReadyRead()
{
    m_buffer += m_proc->readAllStandardOutput();
    int newline;
    while ((newline = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray line = m_buffer.left(newline);
        m_buffer.remove(0, newline + 1);
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (doc.isObject()) {
            handleMessage(doc.object());
        } else if (doc.isArray()) {
            for (const QJsonValue &v : doc.array())
                handleMessage(v.toObject());
        } else {
            qWarning("tagd: unreadable message (%s): %s", qPrintable(parseError.errorString()),
                     line.left(200).constData());
        }
    }
}

void Rpc::handleMessage(const QJsonObject &message)
{
    const QJsonValue id = message.value(QStringLiteral("id"));
    if (message.contains(QStringLiteral("method"))) {
        const QString method = message.value(QStringLiteral("method")).toString();
        const QJsonObject params = message.value(QStringLiteral("params")).toObject();
        if (!id.isUndefined()) {
            // tagd sends no requests today; answer any so it never waits.
            write({{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                   {QStringLiteral("id"), id},
                   {QStringLiteral("error"),
                    QJsonObject{{QStringLiteral("code"), -32601},
                                {QStringLiteral("message"), QStringLiteral("not handled by TagdQt")}}}});
            return;
        }
        QString sessionId = params.value(QStringLiteral("field")).toString();
        if (sessionId.isEmpty())
            sessionId = params.value(QStringLiteral("cloud")).toString();
        if (Session *s = m_sessions.value(sessionId))
            s->tagdNotification(method, params);
        return;
    }
    if (!id.isDouble())
        return; // an error about an unreadable message (id null): nothing waits for it
    const auto it = m_pending.find(id.toInteger());
    if (it == m_pending.end())
        return;
    const Pending p = *it;
    m_pending.erase(it);
    if (!p.context)
        return;
    RpcError error;
    if (message.contains(QStringLiteral("error"))) {
        const QJsonObject e = message.value(QStringLiteral("error")).toObject();
        error.code = e.value(QStringLiteral("code")).toInt(-1);
        error.message = e.value(QStringLiteral("message")).toString();
    }
    p.callback(message.value(QStringLiteral("result")), error);
}

void Rpc::write(const QJsonObject &message)
{
    if (!m_proc)
        return;
    QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
    bytes += '\n';
    m_proc->write(bytes);
}

void Rpc::call(const QString &method, const QJsonObject &params, QObject *context, Callback callback)
{
    ensureStarted();
    if (!m_proc) {
        // No child (it could not be started): answer "restarted" soon, never synchronously.
        QTimer::singleShot(0, context, [callback] {
            RpcError e;
            e.restarted = true;
            e.message = QStringLiteral("tagd is not running");
            callback(QJsonValue(), e);
        });
        return;
    }
    const qint64 id = m_nextId++;
    m_pending.insert(id, {context, std::move(callback)});
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("id"), id},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    write(message);
}

void Rpc::notify(const QString &method, const QJsonObject &params)
{
    ensureStarted();
    QJsonObject message{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                        {QStringLiteral("method"), method}};
    if (!params.isEmpty())
        message.insert(QStringLiteral("params"), params);
    write(message);
}

QString Rpc::addSession(const QString &prefix, Session *session)
{
    const QString id = QStringLiteral("qt-%1-%2").arg(prefix).arg(++m_nextSession);
    m_sessions.insert(id, session);
    ensureStarted();
    return id;
}

QString Rpc::renameSession(const QString &oldId, const QString &prefix)
{
    Session *s = m_sessions.take(oldId);
    const QString id = QStringLiteral("qt-%1-%2").arg(prefix).arg(++m_nextSession);
    if (s)
        m_sessions.insert(id, s);
    return id;
}

void Rpc::removeSession(const QString &id)
{
    m_sessions.remove(id);
}

void Rpc::shutdown()
{
    if (!m_proc)
        return;
    QProcess *proc = std::exchange(m_proc, nullptr);
    m_respawn.stop();
    m_gaveUp = true;
    const QByteArray bye = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"shutdown\"}\n"
                           "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}\n";
    proc->write(bye);
    proc->closeWriteChannel();
    if (!proc->waitForFinished(1000))
        proc->kill();
}

} // namespace Tagd
