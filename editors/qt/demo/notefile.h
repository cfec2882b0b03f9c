// SPDX-License-Identifier: MIT
// A note's tags, read and written through tagd (document/tags, document/setTags): the Notes page
// of both demos (widgets and QML). tagd parses and edits the front matter; the demo only applies
// the edits and replaces the file whole.
#pragma once

#include <TagdQt/Connection>

#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>
#include <QtCore/QSaveFile>

#include <functional>

namespace TagdDemo {

inline QString readNote(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

//! The tags of the note at \a path, to \a done (not called on an error).
inline void noteTags(const QString &path, QObject *context, std::function<void(const QStringList &)> done)
{
    Tagd::Connection::instance()->call(QStringLiteral("document/tags"), {{QStringLiteral("text"), readNote(path)}}, context,
                                       [done](const QJsonValue &r, const QString &error) {
                                           if (!error.isEmpty())
                                               return;
                                           QStringList tags;
                                           for (const QJsonValue &t : r.toObject().value(QStringLiteral("tags")).toArray())
                                               tags << t.toString();
                                           done(tags);
                                       });
}

//! Writes \a tags into the front matter of the note at \a path with tagd's edits; the file is
//! replaced whole (QSaveFile), and only if it still holds the text the edits were made for.
//! \a written follows a write.
inline void setNoteTags(const QString &path, const QStringList &tags, QObject *context, std::function<void()> written)
{
    const QString text = readNote(path);
    Tagd::Connection::instance()->call(
        QStringLiteral("document/setTags"), {{QStringLiteral("text"), text}, {QStringLiteral("tags"), QJsonArray::fromStringList(tags)}},
        context, [path, text, written](const QJsonValue &r, const QString &error) {
            if (!error.isEmpty()) {
                qWarning("tagd demo: cannot set the tags of %s: %s", qPrintable(path), qPrintable(error));
                return;
            }
            const QJsonArray edits = r.toObject().value(QStringLiteral("edits")).toArray();
            if (edits.isEmpty())
                return;
            // Edits come last first, against the text as sent; positions in UTF-16 units.
            QList<int> lineStarts{0};
            for (int i = 0; i < text.size(); ++i)
                if (text[i] == u'\n')
                    lineStarts << i + 1;
            auto offset = [&](const QJsonObject &pos) {
                return lineStarts.value(pos.value(QStringLiteral("line")).toInt(), int(text.size()))
                       + pos.value(QStringLiteral("character")).toInt();
            };
            QString out = text;
            for (const QJsonValue &e : edits) {
                const QJsonObject range = e.toObject().value(QStringLiteral("range")).toObject();
                const int from = offset(range.value(QStringLiteral("start")).toObject());
                const int to = offset(range.value(QStringLiteral("end")).toObject());
                out.replace(from, to - from, e.toObject().value(QStringLiteral("newText")).toString());
            }
            if (readNote(path) != text)
                return;
            QSaveFile f(path);
            if (!f.open(QIODevice::WriteOnly) || f.write(out.toUtf8()) < 0 || !f.commit()) {
                qWarning("tagd demo: cannot write %s", qPrintable(path));
                return;
            }
            written();
        });
}

} // namespace TagdDemo
