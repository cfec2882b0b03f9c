// SPDX-License-Identifier: MIT
//
// The glass tag cloud: each tag a checkable capsule whose checked state is tagd's selection;
// cloud/layout places them and names the merge groups, each painted as one blended shape.

#include "TagdQt/tagcloud.h"

#include "rpc_p.h"

#include <QtCore/QJsonArray>
#include <QtCore/QVariantAnimation>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyleOptionFocusRect>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

namespace {

constexpr int AnimationMs = 700;

class CloudTag : public QAbstractButton
{
public:
    CloudTag(const QString &title, QWidget *parent)
        : QAbstractButton(parent)
    {
        setText(title);
        setAccessibleName(title);
        setCheckable(true);
        setFocusPolicy(Qt::StrongFocus);
        setCursor(Qt::PointingHandCursor);
    }

    QSize sizeHint() const override
    {
        QFont bold = font();
        bold.setBold(true); // measured bold, so selecting a tag never moves the others
        const QFontMetricsF fm(bold);
        const double pad = std::round(fm.height() * 0.75);
        return {int(std::ceil(fm.horizontalAdvance(text()) + 2 * pad)), int(std::ceil(fm.height() + pad))};
    }

    QColor tint;
    qreal selectedOpacity = 0.85, unselectedOpacity = 0.3;
    std::function<void()> onActivate;
    bool placed = false;

protected:
    // A click asks tagd; the checked state follows its answer.
    void nextCheckState() override
    {
        if (onActivate)
            onActivate();
    }

    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        const QRectF r = QRectF(rect()).adjusted(1, 1, -1, -1);
        QColor fill = tint.isValid() ? tint : palette().color(QPalette::Highlight);
        fill.setAlphaF(isChecked() ? selectedOpacity : unselectedOpacity);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        QColor edge(255, 255, 255, isChecked() ? 150 : 70);
        p.setPen(QPen(edge, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        if (hasFocus()) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRoundedRect(r.adjusted(-0.5, -0.5, 0.5, 0.5), r.height() / 2, r.height() / 2);
        }
        QFont f = font();
        f.setBold(isChecked());
        p.setFont(f);
        p.setPen(isChecked() ? QColor(Qt::white) : palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter, text());
    }
};

} // namespace

class TagCloudPrivate : public Session
{
public:
    explicit TagCloudPrivate(TagCloud *q);
    ~TagCloudPrivate() override;

    void tagdNotification(const QString &, const QJsonObject &) override {}
    void tagdReopen() override;

    QJsonArray tagsJson() const;
    void open();
    void applyState(const QJsonValue &state);
    void rebuild();
    void requestLayout();
    void sendLayout();
    void applyLayout(const QJsonObject &layout);
    // Room around the tags for the glass (each capsule grows by half the merge distance) and its edge.
    qreal inset() const { return std::ceil(mergeDistance / 2) + 1; }

    TagCloud *const q;
    Rpc *const rpc;
    QString cloud;
    bool opened = false;
    QStringList titles, selection;
    QHash<QString, QColor> tints;
    QList<CloudTag *> buttons;
    qreal spacing = 16, mergeDistance = 10;
    qreal selectedOpacity = 0.85, unselectedOpacity = 0.3;
    bool animated = true;

    QList<QRectF> frames;
    QList<QList<int>> groups;
    QSizeF size;
    int serial = 0;
    bool inFlight = false;
    bool again = false;
    double lastWidth = -1;

    QVariantAnimation animation;
    qreal from = 16, to = 16, progress = 1;
    QList<QList<qreal>> animationFrames;
};

TagCloudPrivate::TagCloudPrivate(TagCloud *q)
    : q(q)
    , rpc(Rpc::instance())
{
    animated = !rpc->reducedMotion;
    animation.setDuration(AnimationMs);
    animation.setStartValue(0.0);
    animation.setEndValue(1.0);
    animation.setEasingCurve(QEasingCurve::OutCubic);
    QObject::connect(&animation, &QVariantAnimation::valueChanged, q, [this](const QVariant &v) {
        progress = v.toReal();
        requestLayout();
    });
    QObject::connect(&animation, &QVariantAnimation::finished, q, [this] {
        progress = 1;
        requestLayout();
        Q_EMIT this->q->animatingChanged();
    });
    cloud = rpc->addSession(u"cloud"_s, this);
    QTimer::singleShot(0, q, [this] {
        if (!opened)
            open();
    });
}

TagCloudPrivate::~TagCloudPrivate()
{
    rpc->removeSession(cloud);
    if (opened)
        rpc->call(u"cloud/close"_s, {{u"cloud"_s, cloud}}, rpc, [](const QJsonValue &, const RpcError &) {});
}

QJsonArray TagCloudPrivate::tagsJson() const
{
    QJsonArray out;
    for (const QString &t : titles) {
        QJsonObject tag{{u"title"_s, t}};
        if (tints.value(t).isValid())
            tag.insert(u"tint"_s, tints.value(t).name(QColor::HexArgb));
        out.append(tag);
    }
    return out;
}

void TagCloudPrivate::open()
{
    opened = true;
    const QString id = cloud;
    QJsonObject params{{u"cloud"_s, cloud}, {u"tags"_s, tagsJson()}};
    QStringList known;
    for (const QString &s : std::as_const(selection))
        if (titles.contains(s))
            known << s;
    params.insert(u"selection"_s, QJsonArray::fromStringList(known));
    rpc->call(u"cloud/open"_s, params, q, [this, id](const QJsonValue &r, const RpcError &e) {
        if (id != cloud || e.restarted)
            return;
        if (e.isError())
            qWarning("tagd: cloud/open failed: %s", qPrintable(e.message));
        else
            applyState(r);
    });
    lastWidth = -1;
    inFlight = false;
    requestLayout();
}

void TagCloudPrivate::tagdReopen()
{
    cloud = rpc->renameSession(cloud, u"cloud"_s);
    open();
}

void TagCloudPrivate::applyState(const QJsonValue &state)
{
    QStringList sel;
    for (const QJsonValue &v : state.toObject().value(u"selection"_s).toArray())
        sel << v.toString();
    for (CloudTag *b : std::as_const(buttons))
        b->setChecked(sel.contains(b->text()));
    if (sel != selection) {
        selection = sel;
        Q_EMIT q->selectionChanged();
    }
    q->update();
}

void TagCloudPrivate::rebuild()
{
    QHash<QString, CloudTag *> old;
    for (CloudTag *b : std::as_const(buttons))
        old.insert(b->text(), b);
    QList<CloudTag *> next;
    for (const QString &t : std::as_const(titles)) {
        CloudTag *b = old.take(t);
        if (!b) {
            b = new CloudTag(t, q);
            b->hide(); // until tagd places it
            b->onActivate = [this, t] { q->toggle(t); };
        }
        b->tint = tints.value(t);
        b->selectedOpacity = selectedOpacity;
        b->unselectedOpacity = unselectedOpacity;
        b->setChecked(selection.contains(t));
        next << b;
    }
    qDeleteAll(old);
    buttons = next;
    for (int i = 1; i < buttons.size(); ++i)
        QWidget::setTabOrder(buttons[i - 1], buttons[i]);
    lastWidth = -1;
    requestLayout();
}

void TagCloudPrivate::requestLayout()
{
    if (!opened)
        return;
    if (!q->isVisible()) {
        lastWidth = -1; // a hidden widget's width is not the one it will be shown at (showEvent asks)
        return;
    }
    if (inFlight) {
        again = true; // one request at a time; the newest wish is sent when it is answered
        return;
    }
    sendLayout();
}

void TagCloudPrivate::sendLayout()
{
    again = false;
    QJsonArray sizes;
    for (CloudTag *b : std::as_const(buttons)) {
        const QSize s = b->sizeHint();
        sizes.append(QJsonObject{{u"width"_s, s.width()}, {u"height"_s, s.height()}});
    }
    const double width = std::max(1.0, q->width() - 2 * inset());
    QJsonObject params{{u"cloud"_s, cloud}, {u"width"_s, width}, {u"sizes"_s, sizes}, {u"mergeDistance"_s, mergeDistance}};
    const bool moving = animation.state() == QAbstractAnimation::Running;
    if (moving)
        params.insert(u"transition"_s, QJsonObject{{u"from"_s, from}, {u"to"_s, to}, {u"progress"_s, progress}});
    else
        params.insert(u"spacing"_s, spacing);
    lastWidth = q->width();
    inFlight = true;
    const int s = ++serial;
    const QString id = cloud;
    const int count = int(buttons.size());
    rpc->call(u"cloud/layout"_s, params, q, [this, s, id, count, moving](const QJsonValue &r, const RpcError &e) {
        if (id != cloud)
            return;
        if (s == serial)
            inFlight = false;
        if (e.isError()) {
            if (!e.restarted && count == buttons.size())
                qWarning("tagd: cloud/layout failed: %s", qPrintable(e.message));
        } else if (count == buttons.size()) {
            applyLayout(r.toObject());
            if (moving) {
                QList<qreal> xs;
                for (const QRectF &f : std::as_const(frames))
                    xs << f.x();
                animationFrames << xs;
            }
        }
        if (again)
            sendLayout();
    });
}

void TagCloudPrivate::applyLayout(const QJsonObject &layout)
{
    frames.clear();
    const qreal m = inset();
    for (const QJsonValue &v : layout.value(u"frames"_s).toArray()) {
        const QJsonObject f = v.toObject();
        frames << QRectF(m + f.value(u"x"_s).toDouble(), m + f.value(u"y"_s).toDouble(), f.value(u"width"_s).toDouble(),
                         f.value(u"height"_s).toDouble());
    }
    groups.clear();
    for (const QJsonValue &g : layout.value(u"groups"_s).toArray()) {
        QList<int> members;
        for (const QJsonValue &i : g.toArray())
            members << i.toInt();
        groups << members;
    }
    const QJsonObject sz = layout.value(u"size"_s).toObject();
    const QSizeF newSize(sz.value(u"width"_s).toDouble(), sz.value(u"height"_s).toDouble());
    for (int i = 0; i < buttons.size() && i < frames.size(); ++i) {
        buttons[i]->setGeometry(frames[i].toAlignedRect());
        buttons[i]->show();
    }
    if (newSize.height() != size.height()) {
        size = newSize;
        q->updateGeometry();
    }
    size = newSize;
    q->update();
    Q_EMIT q->laidOut();
}

// ---------------------------------------------------------------------------------------------

TagCloud::TagCloud(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<TagCloudPrivate>(this))
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

TagCloud::~TagCloud() = default;

QStringList TagCloud::titles() const { return d->titles; }

void TagCloud::setTitles(const QStringList &titles)
{
    QList<QColor> tints;
    for (const QString &t : titles)
        tints << d->tints.value(t);
    setTags(titles, tints);
}

void TagCloud::setTags(const QStringList &titles, const QList<QColor> &tints)
{
    d->titles = titles;
    d->tints.clear();
    for (int i = 0; i < titles.size(); ++i)
        d->tints.insert(titles[i], i < tints.size() ? tints[i] : QColor());
    if (d->opened) {
        const QString id = d->cloud;
        d->rpc->call(u"cloud/setTags"_s, {{u"cloud"_s, d->cloud}, {u"tags"_s, d->tagsJson()}}, this,
                     [this, id](const QJsonValue &r, const RpcError &e) {
                         if (id != d->cloud || e.restarted)
                             return;
                         if (e.isError())
                             qWarning("tagd: cloud/setTags failed: %s", qPrintable(e.message));
                         else
                             d->applyState(r);
                     });
    }
    d->rebuild();
    Q_EMIT titlesChanged();
}

QColor TagCloud::tint(const QString &title) const { return d->tints.value(title); }
QStringList TagCloud::selection() const { return d->selection; }

void TagCloud::setSelection(const QStringList &selection)
{
    if (!d->opened) {
        d->selection = selection;
        return;
    }
    const QString id = d->cloud;
    d->rpc->call(u"cloud/select"_s, {{u"cloud"_s, d->cloud}, {u"selection"_s, QJsonArray::fromStringList(selection)}}, this,
                 [this, id](const QJsonValue &r, const RpcError &e) {
                     if (id != d->cloud || e.restarted)
                         return;
                     if (e.isError())
                         qWarning("tagd: cloud/select failed: %s", qPrintable(e.message));
                     else
                         d->applyState(r);
                 });
}

void TagCloud::toggle(const QString &title)
{
    const QString id = d->cloud;
    d->rpc->call(u"cloud/toggle"_s, {{u"cloud"_s, d->cloud}, {u"title"_s, title}}, this,
                 [this, id](const QJsonValue &r, const RpcError &e) {
                     if (id != d->cloud || e.restarted)
                         return;
                     if (e.isError()) {
                         qWarning("tagd: cloud/toggle failed: %s", qPrintable(e.message));
                         return;
                     }
                     d->applyState(r);
                     const QJsonObject t = r.toObject().value(u"toggled"_s).toObject();
                     Q_EMIT toggled(t.value(u"title"_s).toString(), t.value(u"selected"_s).toBool());
                 });
}

qreal TagCloud::spacing() const { return d->spacing; }

void TagCloud::setSpacing(qreal spacing)
{
    if (spacing == d->spacing)
        return;
    const bool wasRunning = d->animation.state() == QAbstractAnimation::Running;
    const qreal current = wasRunning ? d->from + (d->to - d->from) * d->progress : d->spacing;
    d->spacing = spacing;
    d->animation.stop();
    if (d->animated && d->opened && !d->frames.isEmpty()) {
        d->from = current;
        d->to = spacing;
        d->progress = 0;
        d->animationFrames.clear();
        d->animation.start();
        if (!wasRunning)
            Q_EMIT animatingChanged();
    } else {
        d->requestLayout();
        if (wasRunning)
            Q_EMIT animatingChanged();
    }
    Q_EMIT spacingChanged();
}

qreal TagCloud::mergeDistance() const { return d->mergeDistance; }
void TagCloud::setMergeDistance(qreal distance)
{
    d->mergeDistance = distance;
    d->requestLayout();
}
qreal TagCloud::selectedOpacity() const { return d->selectedOpacity; }
void TagCloud::setSelectedOpacity(qreal o)
{
    d->selectedOpacity = o;
    for (CloudTag *b : std::as_const(d->buttons)) {
        b->selectedOpacity = o;
        b->update();
    }
}
qreal TagCloud::unselectedOpacity() const { return d->unselectedOpacity; }
void TagCloud::setUnselectedOpacity(qreal o)
{
    d->unselectedOpacity = o;
    for (CloudTag *b : std::as_const(d->buttons)) {
        b->unselectedOpacity = o;
        b->update();
    }
}
bool TagCloud::isAnimated() const { return d->animated; }
void TagCloud::setAnimated(bool animated) { d->animated = animated; }
bool TagCloud::isAnimating() const { return d->animation.state() == QAbstractAnimation::Running; }
QList<QList<int>> TagCloud::groups() const { return d->groups; }
QList<QList<qreal>> TagCloud::animationFrames() const { return d->animationFrames; }

QSize TagCloud::sizeHint() const
{
    const qreal m = 2 * d->inset();
    return {std::max(200, int(std::ceil(d->size.width() + m))), std::max(40, int(std::ceil(d->size.height() + m)))};
}

QSize TagCloud::minimumSizeHint() const
{
    return {100, std::max(40, int(std::ceil(d->size.height() + 2 * d->inset())))};
}

// Each merge group is one shape: every member's capsule grown by half the merge distance (so
// members closer than it overlap), united, and filled with a gradient through their tints.
void TagCloud::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal grow = d->mergeDistance / 2;
    for (const QList<int> &group : std::as_const(d->groups)) {
        QPainterPath shape;
        shape.setFillRule(Qt::WindingFill);
        QRectF bounds;
        QList<std::pair<qreal, QColor>> stops;
        for (int i : group) {
            if (i >= d->frames.size() || i >= d->buttons.size())
                continue;
            const QRectF r = d->frames[i].adjusted(-grow, -grow, grow, grow);
            QPainterPath capsule;
            capsule.addRoundedRect(r, r.height() / 2, r.height() / 2);
            shape = shape.united(capsule);
            bounds = bounds.united(r);
            QColor c = d->buttons[i]->tint.isValid() ? d->buttons[i]->tint : palette().color(QPalette::Highlight);
            stops.append({r.center().x(), c});
        }
        if (shape.isEmpty())
            continue;
        QLinearGradient fill(bounds.topLeft(), bounds.topRight());
        std::sort(stops.begin(), stops.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &[x, color] : stops) {
            QColor c = color;
            c.setAlphaF(0.28);
            fill.setColorAt(bounds.width() > 0 ? std::clamp((x - bounds.left()) / bounds.width(), 0.0, 1.0) : 0.5, c);
        }
        p.setPen(QPen(QColor(255, 255, 255, 60), 1));
        p.setBrush(fill);
        p.drawPath(shape.simplified());
        // The glass's sheen: a light top half.
        QLinearGradient sheen(bounds.topLeft(), bounds.bottomLeft());
        sheen.setColorAt(0, QColor(255, 255, 255, 40));
        sheen.setColorAt(0.5, QColor(255, 255, 255, 0));
        p.setPen(Qt::NoPen);
        p.setBrush(sheen);
        p.drawPath(shape.simplified());
    }
}

void TagCloud::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (width() != d->lastWidth)
        d->requestLayout();
}

void TagCloud::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (width() != d->lastWidth)
        d->requestLayout();
}

void TagCloud::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange)
        d->requestLayout();
    QWidget::changeEvent(event);
}

} // namespace Tagd
