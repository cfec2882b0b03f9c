// SPDX-License-Identifier: MIT
// Internal, not installed: one tag cloud's session in tagd (cloud/open, cloud/layout with the
// spacing animation, toggle, selection) and the glass painting, shared by the widget
// (Tagd::TagCloud) and the Qt Quick item (the Tagd 1.0 QML module's TagCloud).
#pragma once

#include "TagdQt/tagdqt_global.h"
#include "rpc_p.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QRectF>
#include <QtCore/QVariantAnimation>
#include <QtGui/QColor>
#include <QtGui/QFont>

class QPainter;

namespace Tagd {

class TAGDQT_EXPORT CloudSession : public QObject, public Session
{
    Q_OBJECT
public:
    //! What the session needs from the view.
    class View
    {
    public:
        virtual ~View() = default;
        //! Each tag's size, measured bold (so selecting never moves the others).
        virtual QList<QSizeF> tagSizes() const = 0;
        virtual double viewWidth() const = 0;
        //! A hidden view asks for no layout: its width is not the one it will be shown at.
        virtual bool viewVisible() const = 0;
        //! Right to left: tagd's left-to-right frames are mirrored in the view's width.
        virtual bool viewMirrored() const { return false; }
    };

    CloudSession(View *view, QObject *parent);
    ~CloudSession() override;

    QStringList titles, selection;
    QHash<QString, QColor> tints;
    qreal spacing = 16, mergeDistance = 10;
    bool animated = true;

    // the last layout, in the view's coordinates (inset() from its edges)
    QList<QRectF> frames;
    QList<QList<int>> groups;
    QSizeF size;
    QList<QList<qreal>> animationFrames; //!< for tests: every tag's x at each animation step
    //! Mid-animation, the tags whose frames cross others' (a tag moving to another line passes
    //! over its neighbours): not drawn until they are clear, so no two labels ever overlap.
    QList<bool> inTransit;

    //! Room around the tags for the glass (each capsule grows by half the merge distance) and its edge.
    qreal inset() const;
    bool isAnimating() const { return m_animation.state() == QAbstractAnimation::Running; }
    bool isOpen() const { return m_opened; }

    void setTags(const QStringList &titles, const QList<QColor> &tints);

    //! A folder of notes (SPEC §6d) whose tags the cloud shows, most used first (vault/tags,
    //! delivered by vaultTags()); its selection then names the notes carrying every selected
    //! tag (vault/notes, in notes). Empty: no vault.
    QString vault;
    QStringList notes; //!< the notes' file:// URIs, in path order
    //! Each of notes' titles (tagd's \c title, else the file name without its extension).
    QStringList noteTitles;
    void setVault(const QString &folder);
    //! Asks tagd for the vault's tags (and the selection's notes) again.
    void reloadVault();
    void setSelection(const QStringList &selection);
    void toggle(const QString &title);
    void setSpacing(qreal spacing);
    void setMergeDistance(qreal distance);
    //! The view's width or its tags' sizes changed.
    void requestLayout();
    //! The width the last layout was asked for (-1: none yet).
    double lastWidth() const { return m_lastWidth; }

    //! A tag's capsule, measured bold (so selecting a tag never moves the others): the title
    //! with three quarters of the font's height of padding on each side.
    static QSizeF tagSize(const QFont &font, const QString &title);

    //! Paints each merge group as one shape: every member's capsule grown by half the merge
    //! distance (so members closer than it overlap), united, filled with a gradient through
    //! their tints (\a fallback for a tag without one), with a light edge and sheen.
    void paintGlass(QPainter *painter, const QColor &fallback, qreal opacity) const;

Q_SIGNALS:
    void selectionChanged();
    //! tagd said what is selected (it may be what was already known): show it.
    void selectionShown();
    void toggled(const QString &title, bool selected);
    void laidOut();
    void sizeChanged();
    void animatingChanged();
    //! The vault's tags, most used first: the view shows them as its titles.
    void vaultTags(const QStringList &titles);
    void notesChanged();

private:
    void tagdNotification(const QString &, const QJsonObject &) override {}
    void tagdReopen() override;
    QJsonArray tagsJson() const;
    void open();
    void applyState(const QJsonValue &state);
    void sendLayout();
    void applyLayout(const QJsonObject &layout);
    void askNotes();
    void call(const QString &method, QJsonObject params, std::function<void(const QJsonValue &)> then);

    View *const m_view;
    Rpc *const m_rpc;
    QString m_cloud;
    bool m_opened = false;
    int m_serial = 0;
    int m_vaultSerial = 0; //!< the latest vault request: older answers are stale
    bool m_inFlight = false;
    bool m_again = false;
    double m_lastWidth = -1;
    QVariantAnimation m_animation;
    qreal m_from = 16, m_to = 16, m_progress = 1;
};

} // namespace Tagd
