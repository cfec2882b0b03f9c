// SPDX-License-Identifier: MIT
#include "quicktagcloud_p.h"

#include "content_p.h"

#include <QtGui/QGuiApplication>
#include <QtGui/QPalette>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

QuickTagCloud::QuickTagCloud(QQuickItem *parent)
    : QQuickPaintedItem(parent)
    , m_session(new CloudSession(this, this))
    , m_font(QGuiApplication::font())
{
    setAntialiasing(true);
    setImplicitWidth(200);
    setImplicitHeight(40);
    connect(m_session, &CloudSession::selectionChanged, this, &QuickTagCloud::selectionChanged);
    connect(m_session, &CloudSession::toggled, this, &QuickTagCloud::toggled);
    connect(m_session, &CloudSession::animatingChanged, this, &QuickTagCloud::animatingChanged);
    connect(this, &QuickTagCloud::opacitiesChanged, this, [this] { update(); });
    connect(m_session, &CloudSession::laidOut, this, [this] {
        setImplicitHeight(std::max(40.0, std::ceil(m_session->size.height() + 2 * m_session->inset())));
        update();
        Q_EMIT laidOut();
    });
}

QuickTagCloud::~QuickTagCloud()
{
    m_session->disconnect(this);
    delete m_session;
}

void QuickTagCloud::componentComplete()
{
    QQuickPaintedItem::componentComplete();
    m_content = loadContent(this, "Tagd.TagCloud", u"qrc:/qt/qml/Tagd/TagCloudContent.qml"_s, u"cloud"_s);
    if (!m_content)
        return;
    m_session->requestLayout();
}

QList<QSizeF> QuickTagCloud::tagSizes() const
{
    QList<QSizeF> out;
    for (const QString &t : std::as_const(m_session->titles))
        out << CloudSession::tagSize(m_font, t);
    return out;
}

void QuickTagCloud::retag(const QStringList &titles, const QList<QColor> &tints)
{
    m_session->setTags(titles, tints);
    m_session->requestLayout();
    update();
    Q_EMIT titlesChanged();
}

void QuickTagCloud::setTitles(const QStringList &titles)
{
    QList<QColor> tints;
    for (const QString &t : titles)
        tints << m_session->tints.value(t);
    retag(titles, tints);
}

QList<QColor> QuickTagCloud::tints() const
{
    QList<QColor> out;
    for (const QString &t : std::as_const(m_session->titles))
        out << m_session->tints.value(t);
    return out;
}

void QuickTagCloud::setTints(const QList<QColor> &tints) { retag(m_session->titles, tints); }

void QuickTagCloud::setSpacing(qreal spacing)
{
    if (spacing == m_session->spacing)
        return;
    m_session->setSpacing(spacing);
    Q_EMIT spacingChanged();
}

void QuickTagCloud::setMergeDistance(qreal distance)
{
    if (distance == m_session->mergeDistance)
        return;
    m_session->setMergeDistance(distance);
    Q_EMIT mergeDistanceChanged();
}

void QuickTagCloud::setAnimated(bool animated)
{
    if (animated == m_session->animated)
        return;
    m_session->animated = animated;
    Q_EMIT animatedChanged();
}

void QuickTagCloud::setFont(const QFont &font)
{
    if (font == m_font)
        return;
    m_font = font;
    Q_EMIT fontChanged();
    m_session->requestLayout();
}

QVariantList QuickTagCloud::groups() const
{
    QVariantList out;
    for (const QList<int> &g : std::as_const(m_session->groups)) {
        QVariantList members;
        for (int i : g)
            members << i;
        out << QVariant(members);
    }
    return out;
}

QVariantList QuickTagCloud::frames() const
{
    QVariantList out;
    for (int i = 0; i < m_session->titles.size(); ++i)
        // No frame (not shown) until tagd placed it, or while it crosses others mid-animation.
        out << (i < m_session->frames.size() && !m_session->inTransit.value(i) ? QVariant(m_session->frames[i]) : QVariant());
    return out;
}

void QuickTagCloud::paint(QPainter *painter)
{
    m_session->paintGlass(painter, QGuiApplication::palette().color(QPalette::Highlight), m_unselectedOpacity);
}

void QuickTagCloud::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickPaintedItem::geometryChange(newGeometry, oldGeometry);
    if (newGeometry.width() != m_session->lastWidth())
        m_session->requestLayout();
}

void QuickTagCloud::itemChange(ItemChange change, const ItemChangeData &value)
{
    QQuickPaintedItem::itemChange(change, value);
    if (change == ItemVisibleHasChanged && value.boolValue && width() != m_session->lastWidth())
        m_session->requestLayout();
}

} // namespace Tagd
