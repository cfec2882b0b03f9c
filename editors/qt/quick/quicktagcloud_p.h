// SPDX-License-Identifier: MIT
// The Tagd 1.0 QML module's TagCloud: the widget's CloudSession in a QQuickPaintedItem that
// paints the glass (one blended shape per merge group); the tags are TagCloudContent.qml's
// capsules, placed at tagd's frames.
#pragma once

#include "cloudsession_p.h"

#include <QtCore/QPointer>
#include <QtQml/qqmlregistration.h>
#include <QtQuick/QQuickPaintedItem>

namespace Tagd {

class QuickTagCloud : public QQuickPaintedItem, private CloudSession::View
{
    Q_OBJECT
    QML_NAMED_ELEMENT(TagCloud)
    Q_PROPERTY(QStringList titles READ titles WRITE setTitles NOTIFY titlesChanged)
    Q_PROPERTY(QList<QColor> tints READ tints WRITE setTints NOTIFY titlesChanged)
    Q_PROPERTY(QStringList selection READ selection WRITE setSelection NOTIFY selectionChanged)
    Q_PROPERTY(qreal spacing READ spacing WRITE setSpacing NOTIFY spacingChanged)
    Q_PROPERTY(qreal mergeDistance READ mergeDistance WRITE setMergeDistance NOTIFY mergeDistanceChanged)
    Q_PROPERTY(qreal selectedOpacity MEMBER m_selectedOpacity NOTIFY opacitiesChanged)
    Q_PROPERTY(qreal unselectedOpacity MEMBER m_unselectedOpacity NOTIFY opacitiesChanged)
    Q_PROPERTY(QString vault READ vault WRITE setVault NOTIFY vaultChanged)
    Q_PROPERTY(QStringList notes READ notes NOTIFY notesChanged)
    //! The notes' titles, one per note in the order of notes (TagCloud::noteTitles).
    Q_PROPERTY(QStringList noteTitles READ noteTitles NOTIFY notesChanged)
    Q_PROPERTY(bool animated READ isAnimated WRITE setAnimated NOTIFY animatedChanged)
    Q_PROPERTY(bool animating READ isAnimating NOTIFY animatingChanged)
    Q_PROPERTY(QFont font READ font WRITE setFont NOTIFY fontChanged)
    //! The title's colour on an unselected tag (default: the palette's window text).
    Q_PROPERTY(QColor textColor MEMBER m_textColor NOTIFY textColorChanged)
    Q_PROPERTY(QFont boldFont READ boldFont NOTIFY fontChanged)
    Q_PROPERTY(QVariantList groups READ groups NOTIFY laidOut)
    // For TagCloudContent.qml: each tag's frame (empty until tagd placed it).
    Q_PROPERTY(QVariantList frames READ frames NOTIFY laidOut)

public:
    explicit QuickTagCloud(QQuickItem *parent = nullptr);
    ~QuickTagCloud() override;

    QStringList titles() const { return m_session->titles; }
    void setTitles(const QStringList &titles);
    QList<QColor> tints() const;
    void setTints(const QList<QColor> &tints);
    QStringList selection() const { return m_session->selection; }
    void setSelection(const QStringList &selection) { m_session->setSelection(selection); }
    QString vault() const { return m_session->vault; }
    //! A folder of notes: its tags shown, most used first (TagCloud::vault).
    void setVault(const QString &folder)
    {
        if (folder == m_session->vault)
            return;
        m_session->setVault(folder);
        Q_EMIT vaultChanged();
    }
    QStringList notes() const { return m_session->notes; }
    QStringList noteTitles() const { return m_session->noteTitles; }
    Q_INVOKABLE void reloadVault() { m_session->reloadVault(); }
    qreal spacing() const { return m_session->spacing; }
    void setSpacing(qreal spacing);
    qreal mergeDistance() const { return m_session->mergeDistance; }
    void setMergeDistance(qreal distance);
    bool isAnimated() const { return m_session->animated; }
    void setAnimated(bool animated);
    bool isAnimating() const { return m_session->isAnimating(); }
    QFont font() const { return m_font; }
    void setFont(const QFont &font);
    QFont boldFont() const
    {
        QFont bold = m_font;
        bold.setBold(true);
        return bold;
    }
    QVariantList groups() const;
    QVariantList frames() const;

    void paint(QPainter *painter) override;

public Q_SLOTS:
    void toggle(const QString &title) { m_session->toggle(title); }
    //! For TagCloudContent.qml: the layout direction changed.
    void relayout() { m_session->requestLayout(); }

Q_SIGNALS:
    void titlesChanged();
    void selectionChanged();
    void spacingChanged();
    void mergeDistanceChanged();
    void opacitiesChanged();
    void animatedChanged();
    void vaultChanged();
    void notesChanged();
    void animatingChanged();
    void fontChanged();
    void textColorChanged();
    //! A tag was toggled by the user (or toggle()).
    void toggled(const QString &title, bool selected);
    void laidOut();

protected:
    void componentComplete() override;
    void geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry) override;
    void itemChange(ItemChange change, const ItemChangeData &value) override;

private:
    QList<QSizeF> tagSizes() const override;
    double viewWidth() const override { return width(); }
    bool viewVisible() const override { return isComponentComplete() && isVisible() && width() > 0; }
    bool viewMirrored() const override { return m_content && m_content->property("mirrored").toBool(); }
    void retag(const QStringList &titles, const QList<QColor> &tints);

    CloudSession *m_session;
    QPointer<QQuickItem> m_content;
    QFont m_font;
    QColor m_textColor;
    qreal m_selectedOpacity = 0.85, m_unselectedOpacity = 0.3;
};

} // namespace Tagd
