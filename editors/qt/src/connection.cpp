// SPDX-License-Identifier: MIT
#include "TagdQt/connection.h"

#include "rpc_p.h"

#include <QtCore/QCoreApplication>

namespace Tagd {

Connection::Connection(QObject *parent)
    : QObject(parent)
{
    connect(Rpc::instance(), &Rpc::started, this, &Connection::started);
}

Connection *Connection::instance()
{
    static Connection *connection = nullptr;
    if (!connection)
        connection = new Connection(QCoreApplication::instance());
    return connection;
}

QString Connection::program() const { return Rpc::instance()->program; }

void Connection::setProgram(const QString &program)
{
    if (Rpc::instance()->program == program)
        return;
    Rpc::instance()->program = program;
    Rpc::instance()->programChanged();
    Q_EMIT programChanged();
}

qint64 Connection::processId() const { return Rpc::instance()->pid(); }
int Connection::restartCount() const { return Rpc::instance()->restarts; }
QString Connection::language() const { return Rpc::instance()->language; }
QString Connection::resolvedProgram() const { return Rpc::instance()->resolveProgram(); }
bool Connection::reducedMotion() const { return Rpc::instance()->reducedMotion; }
void Connection::setReducedMotion(bool reduced)
{
    if (Rpc::instance()->reducedMotion == reduced)
        return;
    Rpc::instance()->reducedMotion = reduced;
    Q_EMIT reducedMotionChanged();
}

void Connection::call(const QString &method, const QJsonObject &params, QObject *context,
                      std::function<void(const QJsonValue &, const QString &)> done)
{
    Rpc::instance()->call(method, params, context, [done](const QJsonValue &result, const RpcError &error) {
        done(result, error.isError() ? error.message : QString());
    });
}

} // namespace Tagd
