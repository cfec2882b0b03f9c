// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QStringList>
#include <QtGui/QColor>
#include <QtWidgets/QWidget>

#include <memory>

#include "tagdqt_global.h"

namespace Tagd {

class TagCloudPrivate;

/*!
 * A selectable tag cloud drawn on glass: tinted checkable capsules placed by tagd's
 * \c cloud/layout, and each merge group (tags closer than \c mergeDistance) painted as one
 * blended shape behind its tags. A change of \c spacing animates (0.7 s) unless the desktop
 * asks for reduced motion (see Connection::reducedMotion()).
 */
class TAGDQT_EXPORT TagCloud : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(QStringList titles READ titles WRITE setTitles NOTIFY titlesChanged)
    Q_PROPERTY(QStringList selection READ selection WRITE setSelection NOTIFY selectionChanged)
    Q_PROPERTY(qreal spacing READ spacing WRITE setSpacing NOTIFY spacingChanged)
    Q_PROPERTY(qreal mergeDistance READ mergeDistance WRITE setMergeDistance NOTIFY mergeDistanceChanged)
    Q_PROPERTY(qreal selectedOpacity READ selectedOpacity WRITE setSelectedOpacity NOTIFY selectedOpacityChanged)
    Q_PROPERTY(qreal unselectedOpacity READ unselectedOpacity WRITE setUnselectedOpacity NOTIFY unselectedOpacityChanged)
    Q_PROPERTY(QString vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(QStringList notes READ notes NOTIFY notesChanged)
    Q_PROPERTY(QStringList noteTitles READ noteTitles NOTIFY notesChanged)
    Q_PROPERTY(bool animated READ isAnimated WRITE setAnimated NOTIFY animatedChanged)
    Q_PROPERTY(bool animating READ isAnimating NOTIFY animatingChanged)

public:
    explicit TagCloud(QWidget *parent = nullptr);
    ~TagCloud() override;

    QStringList titles() const;
    //! Sets the titles; tints of titles that remain are kept.
    void setTitles(const QStringList &titles);
    //! Sets titles and their tints together (an invalid colour: the palette's highlight).
    void setTags(const QStringList &titles, const QList<QColor> &tints);
    QColor tint(const QString &title) const;

    QStringList selection() const;
    void setSelection(const QStringList &selection);
    void toggle(const QString &title);

    QString vault() const;
    //! A folder of Markdown or Org notes (SPEC §6d): the cloud shows its tags, most used first
    //! (replacing the titles), and notes() names the notes carrying every selected tag
    //! (noteTitles() their titles, to show them by).
    void setVault(const QString &folder);
    //! The \c file:// URIs of the vault's notes carrying every selected tag, in path order
    //! (none while nothing is selected).
    QStringList notes() const;
    //! The titles of those notes, one per note in the order of notes(): a note's front-matter
    //! \c title, else its first level-1 heading (Org: \c #+TITLE), as tagd's \c vault/notes
    //! gives it; a note without one is named by its file name without the extension. Changes
    //! with notes() (notesChanged()).
    QStringList noteTitles() const;
    //! Reads the vault's tags and the selection's notes again (after a note was changed).
    void reloadVault();

    qreal spacing() const;
    void setSpacing(qreal spacing); //!< animates from the current spacing (default 16)
    qreal mergeDistance() const;
    void setMergeDistance(qreal distance); //!< default 10
    qreal selectedOpacity() const;
    void setSelectedOpacity(qreal opacity); //!< the tint's opacity on a selected tag (0.85)
    qreal unselectedOpacity() const;
    void setUnselectedOpacity(qreal opacity); //!< and on the others (0.3)
    bool isAnimated() const; //!< default: not Connection::reducedMotion()
    void setAnimated(bool animated);
    bool isAnimating() const;

    //! The merge groups on screen: lists of tag indices (tagd's \c groups).
    QList<QList<int>> groups() const;
    //! For tests: the x of every tag at each layout applied during the last animation.
    QList<QList<qreal>> animationFrames() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void titlesChanged();
    void selectionChanged();
    void spacingChanged();
    void vaultChanged();
    void notesChanged();
    void mergeDistanceChanged();
    void selectedOpacityChanged();
    void unselectedOpacityChanged();
    void animatedChanged();
    void animatingChanged();
    //! A tag was toggled by the user (or toggle()).
    void toggled(const QString &title, bool selected);
    //! A new layout was applied (placed tags, groups).
    void laidOut();

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    friend class TagCloudPrivate;
    std::unique_ptr<TagCloudPrivate> d;
};

} // namespace Tagd
