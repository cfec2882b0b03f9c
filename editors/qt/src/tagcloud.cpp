// SPDX-License-Identifier: MIT
//
// The glass tag cloud: each tag a checkable capsule whose checked state is tagd's selection;
// cloud/layout places them and names the merge groups, each painted as one blended shape
// (CloudSession, shared with the Qt Quick item).

#include "TagdQt/tagcloud.h"

#include "cloudsession_p.h"

#include <QtGui/QPainter>
#include <QtWidgets/QAbstractButton>
#include <QtWidgets/QApplication>
#include <QtWidgets/QStyleOptionFocusRect>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

namespace {

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

    QSize sizeHint() const override { return CloudSession::tagSize(font(), text()).toSize(); }

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
        // An unselected tag is its glass alone (the cloud paints it at unselectedOpacity): no
        // fill or edge of its own, so it reads at that opacity with one outline. A selected tag
        // gets its tint once more, up to selectedOpacity over the glass, with a light edge.
        if (isChecked()) {
            QColor fill = tint.isValid() ? tint : palette().color(QPalette::Highlight);
            fill.setAlphaF(std::clamp((selectedOpacity - unselectedOpacity) / (1 - unselectedOpacity), 0.0, 1.0));
            p.setPen(QPen(QColor(255, 255, 255, 150), 1));
            p.setBrush(fill);
            p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
        }
        if (hasFocus()) {
            p.setPen(QPen(palette().color(QPalette::Highlight), 2));
            p.drawRoundedRect(r.adjusted(-0.5, -0.5, 0.5, 0.5), r.height() / 2, r.height() / 2);
        }
        // Titles semibold, bold when selected (measured bold, so selecting moves nothing).
        QFont f = font();
        f.setWeight(isChecked() ? QFont::Bold : QFont::DemiBold);
        p.setFont(f);
        p.setPen(isChecked() ? QColor(Qt::white) : palette().color(QPalette::WindowText));
        p.drawText(rect(), Qt::AlignCenter, text());
    }
};

} // namespace

class TagCloudPrivate : public CloudSession::View
{
public:
    explicit TagCloudPrivate(TagCloud *q);

    QList<QSizeF> tagSizes() const override
    {
        QList<QSizeF> out;
        for (CloudTag *b : std::as_const(buttons))
            out << QSizeF(b->sizeHint());
        return out;
    }
    double viewWidth() const override { return q->width(); }
    bool viewVisible() const override { return q->isVisible(); }
    bool viewMirrored() const override { return q->isRightToLeft(); }

    void rebuild();
    void showSelection();
    void place();

    TagCloud *const q;
    CloudSession *session = nullptr;
    QList<CloudTag *> buttons;
    qreal selectedOpacity = 0.85, unselectedOpacity = 0.3;
};

TagCloudPrivate::TagCloudPrivate(TagCloud *q)
    : q(q)
{
    session = new CloudSession(this, q);
    QObject::connect(session, &CloudSession::selectionShown, q, [this] { showSelection(); });
    QObject::connect(session, &CloudSession::selectionChanged, q, &TagCloud::selectionChanged);
    QObject::connect(session, &CloudSession::toggled, q, &TagCloud::toggled);
    QObject::connect(session, &CloudSession::vaultTags, q, [q](const QStringList &titles) {
        if (titles != q->titles())
            q->setTitles(titles);
    });
    QObject::connect(session, &CloudSession::notesChanged, q, &TagCloud::notesChanged);
    QObject::connect(session, &CloudSession::animatingChanged, q, &TagCloud::animatingChanged);
    QObject::connect(session, &CloudSession::sizeChanged, q, [q] { q->updateGeometry(); });
    QObject::connect(session, &CloudSession::laidOut, q, [this] {
        place();
        Q_EMIT this->q->laidOut();
    });
}

void TagCloudPrivate::showSelection()
{
    for (CloudTag *b : std::as_const(buttons))
        b->setChecked(session->selection.contains(b->text()));
    q->update();
}

void TagCloudPrivate::place()
{
    for (int i = 0; i < buttons.size() && i < session->frames.size(); ++i) {
        buttons[i]->setGeometry(session->frames[i].toAlignedRect());
        // A tag crossing others mid-animation is hidden until it is clear (unless it has focus).
        buttons[i]->setVisible(!session->inTransit.value(i) || buttons[i]->hasFocus());
    }
    q->update();
}

void TagCloudPrivate::rebuild()
{
    QHash<QString, CloudTag *> old;
    for (CloudTag *b : std::as_const(buttons))
        old.insert(b->text(), b);
    QList<CloudTag *> next;
    for (const QString &t : std::as_const(session->titles)) {
        CloudTag *b = old.take(t);
        if (!b) {
            b = new CloudTag(t, q);
            b->hide(); // until tagd places it
            b->onActivate = [this, t] { session->toggle(t); };
        }
        b->tint = session->tints.value(t);
        b->selectedOpacity = selectedOpacity;
        b->unselectedOpacity = unselectedOpacity;
        b->setChecked(session->selection.contains(t));
        next << b;
    }
    qDeleteAll(old);
    buttons = next;
    for (int i = 1; i < buttons.size(); ++i)
        QWidget::setTabOrder(buttons[i - 1], buttons[i]);
    session->requestLayout();
}

// ---------------------------------------------------------------------------------------------

TagCloud::TagCloud(QWidget *parent)
    : QWidget(parent)
    , d(std::make_unique<TagCloudPrivate>(this))
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

TagCloud::~TagCloud()
{
    d->session->disconnect(this);
    delete d->session;
}

QStringList TagCloud::titles() const { return d->session->titles; }

void TagCloud::setTitles(const QStringList &titles)
{
    QList<QColor> tints;
    for (const QString &t : titles)
        tints << d->session->tints.value(t);
    setTags(titles, tints);
}

void TagCloud::setTags(const QStringList &titles, const QList<QColor> &tints)
{
    d->session->setTags(titles, tints);
    d->rebuild();
    Q_EMIT titlesChanged();
}

QColor TagCloud::tint(const QString &title) const { return d->session->tints.value(title); }
QStringList TagCloud::selection() const { return d->session->selection; }
void TagCloud::setSelection(const QStringList &selection) { d->session->setSelection(selection); }
QString TagCloud::vault() const { return d->session->vault; }
void TagCloud::setVault(const QString &folder)
{
    if (folder == d->session->vault)
        return;
    d->session->setVault(folder);
    Q_EMIT vaultChanged();
}
QStringList TagCloud::notes() const { return d->session->notes; }
QStringList TagCloud::noteTitles() const { return d->session->noteTitles; }
void TagCloud::reloadVault() { d->session->reloadVault(); }
void TagCloud::toggle(const QString &title) { d->session->toggle(title); }
qreal TagCloud::spacing() const { return d->session->spacing; }

void TagCloud::setSpacing(qreal spacing)
{
    if (spacing == d->session->spacing)
        return;
    d->session->setSpacing(spacing);
    Q_EMIT spacingChanged();
}

qreal TagCloud::mergeDistance() const { return d->session->mergeDistance; }
void TagCloud::setMergeDistance(qreal distance)
{
    if (distance == d->session->mergeDistance)
        return;
    d->session->setMergeDistance(distance);
    Q_EMIT mergeDistanceChanged();
}
qreal TagCloud::selectedOpacity() const { return d->selectedOpacity; }
void TagCloud::setSelectedOpacity(qreal o)
{
    if (o == d->selectedOpacity)
        return;
    d->selectedOpacity = o;
    Q_EMIT selectedOpacityChanged();
    for (CloudTag *b : std::as_const(d->buttons)) {
        b->selectedOpacity = o;
        b->update();
    }
}
qreal TagCloud::unselectedOpacity() const { return d->unselectedOpacity; }
void TagCloud::setUnselectedOpacity(qreal o)
{
    if (o == d->unselectedOpacity)
        return;
    d->unselectedOpacity = o;
    Q_EMIT unselectedOpacityChanged();
    update();
    for (CloudTag *b : std::as_const(d->buttons)) {
        b->unselectedOpacity = o;
        b->update();
    }
}
bool TagCloud::isAnimated() const { return d->session->animated; }
void TagCloud::setAnimated(bool animated)
{
    if (animated == d->session->animated)
        return;
    d->session->animated = animated;
    Q_EMIT animatedChanged();
}
bool TagCloud::isAnimating() const { return d->session->isAnimating(); }
QList<QList<int>> TagCloud::groups() const { return d->session->groups; }
QList<QList<qreal>> TagCloud::animationFrames() const { return d->session->animationFrames; }

QSize TagCloud::sizeHint() const
{
    const qreal m = 2 * d->session->inset();
    const QSizeF size = d->session->size;
    return {std::max(200, int(std::ceil(size.width() + m))), std::max(40, int(std::ceil(size.height() + m)))};
}

QSize TagCloud::minimumSizeHint() const
{
    return {100, std::max(40, int(std::ceil(d->session->size.height() + 2 * d->session->inset())))};
}

void TagCloud::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    d->session->paintGlass(&p, palette().color(QPalette::Highlight), d->unselectedOpacity);
}

void TagCloud::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (width() != d->session->lastWidth())
        d->session->requestLayout();
}

void TagCloud::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (width() != d->session->lastWidth())
        d->session->requestLayout();
}

void TagCloud::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::LayoutDirectionChange)
        d->session->requestLayout();
    QWidget::changeEvent(event);
}

} // namespace Tagd
