// SPDX-License-Identifier: MIT
// The QML demo's Notes page reads and writes a note's tags through this object ("noteFiles" in
// Main.qml): the folder given with --vault, a note's name, and demo/notefile.h's tagd calls.
#pragma once

#include "../control.h"
#include "../notefile.h"

#include <QtCore/QFileInfo>
#include <QtCore/QObject>
#include <QtCore/QUrl>

class NoteFiles : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString vault READ vault CONSTANT)

public:
    using QObject::QObject;

    QString vault() const { return TagdDemo::vaultFolder(); }
    //! A note's name: its file name without the extension.
    Q_INVOKABLE QString name(const QString &uri) const { return QFileInfo(QUrl(uri).toLocalFile()).completeBaseName(); }
    //! Reads the note's tags (document/tags): loaded() follows.
    Q_INVOKABLE void load(const QString &uri)
    {
        TagdDemo::noteTags(QUrl(uri).toLocalFile(), this, [this, uri](const QStringList &tags) { Q_EMIT loaded(uri, tags); });
    }
    //! Writes the note's tags into its front matter (document/setTags): written() follows.
    Q_INVOKABLE void save(const QString &uri, const QStringList &tags)
    {
        TagdDemo::setNoteTags(QUrl(uri).toLocalFile(), tags, this, [this] { Q_EMIT written(); });
    }

Q_SIGNALS:
    void loaded(const QString &uri, const QStringList &tags);
    void written();
};
