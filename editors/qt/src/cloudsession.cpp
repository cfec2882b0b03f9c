// SPDX-License-Identifier: MIT
//
// A cloud's session: the titles and tints go to cloud/open, the selection is tagd's (a toggle
// asks cloud/toggle and the answer says what is selected), and cloud/layout places the tags and
// names the merge groups. A spacing change animates: cloud/layout is asked with
// transition {from, to, progress} at each step, one request in flight at a time.

#include "cloudsession_p.h"

#include <QtCore/QFileInfo>
#include <QtCore/QJsonArray>
#include <QtCore/QTimer>
#include <QtCore/QUrl>
#include <QtGui/QFontMetricsF>
#include <QtGui/QPainter>
#include <QtGui/QPainterPath>

#include <cmath>

using namespace Qt::StringLiterals;

namespace Tagd {

constexpr int AnimationMs = 700;

CloudSession::CloudSession(View *view, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_rpc(Rpc::instance())
{
    animated = !m_rpc->reducedMotion;
    m_animation.setDuration(AnimationMs);
    m_animation.setStartValue(0.0);
    m_animation.setEndValue(1.0);
    m_animation.setEasingCurve(QEasingCurve::OutCubic);
    connect(&m_animation, &QVariantAnimation::valueChanged, this, [this](const QVariant &v) {
        m_progress = v.toReal();
        requestLayout();
    });
    connect(&m_animation, &QVariantAnimation::finished, this, [this] {
        m_progress = 1;
        requestLayout();
        Q_EMIT animatingChanged();
    });
    m_cloud = m_rpc->addSession(u"cloud"_s, this);
    // Opened on the next turn of the event loop, once the view has set its tags.
    QTimer::singleShot(0, this, [this] {
        if (!m_opened)
            open();
    });
}

CloudSession::~CloudSession()
{
    m_rpc->removeSession(m_cloud);
    if (m_opened)
        m_rpc->call(u"cloud/close"_s, {{u"cloud"_s, m_cloud}}, m_rpc, [](const QJsonValue &, const RpcError &) {});
}

QSizeF CloudSession::tagSize(const QFont &font, const QString &title)
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold);
    const double pad = std::round(fm.height() * 0.75);
    return {std::ceil(fm.horizontalAdvance(title) + 2 * pad), std::ceil(fm.height() + pad)};
}

qreal CloudSession::inset() const { return std::ceil(mergeDistance / 2) + 1; }

QJsonArray CloudSession::tagsJson() const
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

void CloudSession::call(const QString &method, QJsonObject params, std::function<void(const QJsonValue &)> then)
{
    const QString id = m_cloud;
    params.insert(u"cloud"_s, m_cloud);
    m_rpc->call(method, params, this, [this, id, method, then](const QJsonValue &r, const RpcError &e) {
        if (id != m_cloud || e.restarted)
            return;
        if (e.isError())
            qWarning("tagd: %s failed: %s", qPrintable(method), qPrintable(e.message));
        else
            then(r);
    });
}

void CloudSession::open()
{
    m_opened = true;
    QStringList known;
    for (const QString &s : std::as_const(selection))
        if (titles.contains(s))
            known << s;
    call(u"cloud/open"_s, {{u"tags"_s, tagsJson()}, {u"selection"_s, QJsonArray::fromStringList(known)}},
         [this](const QJsonValue &r) { applyState(r); });
    m_lastWidth = -1;
    m_inFlight = false;
    requestLayout();
}

void CloudSession::tagdReopen()
{
    m_cloud = m_rpc->renameSession(m_cloud, u"cloud"_s);
    open();
    // A vault request cut off by the death is asked again of the new tagd (given the folders
    // in its initialize).
    if (!vault.isEmpty())
        reloadVault();
}

void CloudSession::applyState(const QJsonValue &state)
{
    QStringList sel;
    for (const QJsonValue &v : state.toObject().value(u"selection"_s).toArray())
        sel << v.toString();
    const bool changed = sel != selection;
    selection = sel;
    Q_EMIT selectionShown();
    if (changed) {
        Q_EMIT selectionChanged();
        askNotes();
    }
}

void CloudSession::setTags(const QStringList &newTitles, const QList<QColor> &newTints)
{
    titles = newTitles;
    tints.clear();
    for (int i = 0; i < titles.size(); ++i)
        tints.insert(titles[i], i < newTints.size() ? newTints[i] : QColor());
    if (m_opened)
        call(u"cloud/setTags"_s, {{u"tags"_s, tagsJson()}}, [this](const QJsonValue &r) { applyState(r); });
    m_lastWidth = -1;
}

void CloudSession::setVault(const QString &folder)
{
    if (folder == vault)
        return;
    vault = folder;
    m_rpc->addVault(folder);
    reloadVault();
}

void CloudSession::reloadVault()
{
    const int serial = ++m_vaultSerial;
    if (vault.isEmpty()) {
        notes.clear();
        noteTitles.clear();
        Q_EMIT notesChanged();
        return;
    }
    // Parked by tagd until the vault's first index is done, then answered.
    m_rpc->call(u"vault/tags"_s, {}, this, [this, serial](const QJsonValue &r, const RpcError &e) {
        if (serial != m_vaultSerial || e.restarted)
            return;
        if (e.isError()) {
            qWarning("tagd: vault/tags failed: %s", qPrintable(e.message));
            return;
        }
        QStringList list;
        for (const QJsonValue &t : r.toObject().value(u"tags"_s).toArray())
            list << t.toObject().value(u"tag"_s).toString();
        Q_EMIT vaultTags(list);
        askNotes();
    });
}

// A note's title: tagd's (vault/notes gives one when the note has it), else its file name
// without the extension, so that every note listed has a name to show.
static QString noteTitle(const QString &uri, const QString &title)
{
    if (!title.trimmed().isEmpty())
        return title;
    const QUrl url(uri);
    return QFileInfo(url.isLocalFile() ? url.toLocalFile() : url.path()).completeBaseName();
}

// The notes carrying every selected tag; no tag selected names no note.
void CloudSession::askNotes()
{
    if (vault.isEmpty())
        return;
    const int serial = ++m_vaultSerial;
    m_rpc->call(u"vault/notes"_s, {{u"tags"_s, QJsonArray::fromStringList(selection)}, {u"match"_s, u"all"_s}}, this,
                [this, serial](const QJsonValue &r, const RpcError &e) {
                    if (serial != m_vaultSerial || e.restarted)
                        return;
                    if (e.isError()) {
                        qWarning("tagd: vault/notes failed: %s", qPrintable(e.message));
                        return;
                    }
                    QStringList uris, titles;
                    for (const QJsonValue &n : r.toObject().value(u"notes"_s).toArray()) {
                        const QString uri = n.toObject().value(u"uri"_s).toString();
                        uris << uri;
                        titles << noteTitle(uri, n.toObject().value(u"title"_s).toString());
                    }
                    if (uris == notes && titles == noteTitles)
                        return;
                    notes = uris;
                    noteTitles = titles;
                    Q_EMIT notesChanged();
                });
}

void CloudSession::setSelection(const QStringList &wanted)
{
    if (!m_opened) {
        selection = wanted;
        return;
    }
    call(u"cloud/select"_s, {{u"selection"_s, QJsonArray::fromStringList(wanted)}}, [this](const QJsonValue &r) { applyState(r); });
}

void CloudSession::toggle(const QString &title)
{
    call(u"cloud/toggle"_s, {{u"title"_s, title}}, [this](const QJsonValue &r) {
        applyState(r);
        const QJsonObject t = r.toObject().value(u"toggled"_s).toObject();
        Q_EMIT toggled(t.value(u"title"_s).toString(), t.value(u"selected"_s).toBool());
    });
}

void CloudSession::setSpacing(qreal value)
{
    if (value == spacing)
        return;
    const bool wasRunning = isAnimating();
    const qreal current = wasRunning ? m_from + (m_to - m_from) * m_progress : spacing;
    spacing = value;
    m_animation.stop();
    if (animated && m_opened && !frames.isEmpty()) {
        m_from = current;
        m_to = value;
        m_progress = 0;
        animationFrames.clear();
        m_animation.start();
        if (!wasRunning)
            Q_EMIT animatingChanged();
    } else {
        requestLayout();
        if (wasRunning)
            Q_EMIT animatingChanged();
    }
}

void CloudSession::setMergeDistance(qreal distance)
{
    mergeDistance = distance;
    requestLayout();
}

void CloudSession::requestLayout()
{
    if (!m_opened)
        return;
    if (!m_view->viewVisible()) {
        m_lastWidth = -1; // the view asks again when it is shown
        return;
    }
    if (m_inFlight) {
        m_again = true; // one request at a time; the newest wish is sent when it is answered
        return;
    }
    sendLayout();
}

void CloudSession::sendLayout()
{
    m_again = false;
    QJsonArray sizes;
    const QList<QSizeF> measured = m_view->tagSizes();
    for (const QSizeF &s : measured)
        sizes.append(QJsonObject{{u"width"_s, s.width()}, {u"height"_s, s.height()}});
    const double width = std::max(1.0, m_view->viewWidth() - 2 * inset());
    QJsonObject params{{u"cloud"_s, m_cloud}, {u"width"_s, width}, {u"sizes"_s, sizes}, {u"mergeDistance"_s, mergeDistance}};
    const bool moving = isAnimating();
    if (moving)
        params.insert(u"transition"_s, QJsonObject{{u"from"_s, m_from}, {u"to"_s, m_to}, {u"progress"_s, m_progress}});
    else
        params.insert(u"spacing"_s, spacing);
    m_lastWidth = m_view->viewWidth();
    m_inFlight = true;
    const int s = ++m_serial;
    const QString id = m_cloud;
    const int count = int(measured.size());
    m_rpc->call(u"cloud/layout"_s, params, this, [this, s, id, count, moving](const QJsonValue &r, const RpcError &e) {
        if (id != m_cloud)
            return;
        if (s == m_serial)
            m_inFlight = false;
        if (e.isError()) {
            if (!e.restarted && count == titles.size())
                qWarning("tagd: cloud/layout failed: %s", qPrintable(e.message));
        } else if (count == titles.size()) {
            applyLayout(r.toObject());
            if (moving) {
                QList<qreal> xs;
                for (const QRectF &f : std::as_const(frames))
                    xs << f.x();
                animationFrames << xs;
            }
        }
        if (m_again)
            sendLayout();
    });
}

void CloudSession::applyLayout(const QJsonObject &layout)
{
    frames.clear();
    const qreal m = inset();
    const bool mirrored = m_view->viewMirrored();
    const double width = m_view->viewWidth();
    for (const QJsonValue &v : layout.value(u"frames"_s).toArray()) {
        const QJsonObject f = v.toObject();
        const double w = f.value(u"width"_s).toDouble(), x = m + f.value(u"x"_s).toDouble();
        frames << QRectF(mirrored ? width - x - w : x, m + f.value(u"y"_s).toDouble(), w, f.value(u"height"_s).toDouble());
    }
    // A tag whose frame crosses others' is left out until it is clear: the one with the most
    // crossings first, until no two frames overlap (outside an animation none do).
    inTransit = QList<bool>(frames.size(), false);
    const auto crossing = [this](int a, int b) {
        const QRect i = frames[a].toAlignedRect().intersected(frames[b].toAlignedRect()); // as placed
        return i.width() > 1 && i.height() > 1;
    };
    for (;;) {
        int worst = -1, most = 0;
        for (int a = 0; a < frames.size(); ++a) {
            if (inTransit[a])
                continue;
            int n = 0;
            for (int b = 0; b < frames.size(); ++b)
                if (b != a && !inTransit[b] && crossing(a, b))
                    ++n;
            if (n > most) {
                most = n;
                worst = a;
            }
        }
        if (worst < 0)
            break;
        inTransit[worst] = true;
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
    const bool taller = newSize.height() != size.height();
    size = newSize;
    Q_EMIT laidOut();
    if (taller)
        Q_EMIT sizeChanged();
}

void CloudSession::paintGlass(QPainter *p, const QColor &fallback, qreal opacity) const
{
    p->setRenderHint(QPainter::Antialiasing);
    const qreal grow = mergeDistance / 2;
    for (const QList<int> &group : std::as_const(groups)) {
        QPainterPath shape;
        shape.setFillRule(Qt::WindingFill);
        QRectF bounds;
        QList<std::pair<qreal, QColor>> stops;
        for (int i : group) {
            if (i >= frames.size() || i >= titles.size() || inTransit.value(i))
                continue;
            const QRectF r = frames[i].adjusted(-grow, -grow, grow, grow);
            QPainterPath capsule;
            capsule.addRoundedRect(r, r.height() / 2, r.height() / 2);
            shape = shape.united(capsule);
            bounds = bounds.united(r);
            const QColor c = tints.value(titles[i]);
            stops.append({r.center().x(), c.isValid() ? c : fallback});
        }
        if (shape.isEmpty())
            continue;
        QLinearGradient fill(bounds.topLeft(), bounds.topRight());
        std::sort(stops.begin(), stops.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        for (const auto &[x, color] : stops) {
            QColor c = color;
            c.setAlphaF(opacity); // an unselected tag reads at this opacity: its glass is all of it
            fill.setColorAt(bounds.width() > 0 ? std::clamp((x - bounds.left()) / bounds.width(), 0.0, 1.0) : 0.5, c);
        }
        p->setPen(QPen(QColor(255, 255, 255, 60), 1)); // the one outline of the shape
        p->setBrush(fill);
        p->drawPath(shape.simplified());
        // The glass's sheen: a light top half.
        QLinearGradient sheen(bounds.topLeft(), bounds.bottomLeft());
        sheen.setColorAt(0, QColor(255, 255, 255, 40));
        sheen.setColorAt(0.5, QColor(255, 255, 255, 0));
        p->setPen(Qt::NoPen);
        p->setBrush(sheen);
        p->drawPath(shape.simplified());
    }
}

} // namespace Tagd
