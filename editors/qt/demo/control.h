// SPDX-License-Identifier: MIT
//
// What both demos (the widgets' tagd-qt-demo and the QML tagd-qml-demo) share: their command
// line (--tagd, --no-animations, --dark, --rtl, --control) and the --control loop the real-window tests drive
// (tests/realwindow.py): commands on stdin, one per line, each answered by one JSON line on
// stdout.

#pragma once

#include <TagdQt/Connection>

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLocale>
#include <QtCore/QSocketNotifier>
#include <QtCore/QTranslator>
#include <QtGui/QFontMetricsF>
#include <QtGui/QGuiApplication>
#include <QtGui/QImage>
#include <QtGui/QPainter>
#include <QtGui/QPalette>

#include <cmath>
#include <cstdio>
#include <functional>
#include <unistd.h>

namespace TagdDemo {

// The folder of notes the Notes page shows (--vault), empty when none was given.
inline QString &vaultFolder()
{
    static QString folder;
    return folder;
}

// Parses the demos' options and applies --tagd and --no-animations; returns whether --control
// was given.
inline bool parseOptions(QCoreApplication &app, const QString &description)
{
    using namespace Qt::StringLiterals;
    // The demo's words in the locale's language (the library loads its own catalogue itself).
    auto *translator = new QTranslator(&app);
    if (translator->load(QLocale(), u"tagd_demo"_s, u"_"_s, u":/tagd-demo/i18n"_s))
        QCoreApplication::installTranslator(translator);
    QCommandLineParser parser;
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addOption({u"tagd"_s, u"The tagd program."_s, u"path"_s});
    parser.addOption({u"no-animations"_s, u"Reduced motion, as when the desktop asks for it."_s});
    parser.addOption({u"dark"_s, u"A dark palette, as a desktop in its dark style."_s});
    parser.addOption({u"rtl"_s, u"Right-to-left layout, as in an Arabic or Hebrew session."_s});
    parser.addOption({u"vault"_s, u"The folder of notes the Notes page shows (its notes are written to)."_s, u"dir"_s});
    parser.addOption({u"control"_s, u"Read test commands on stdin (dump, set, cloud, page, shot, quit)."_s});
    parser.process(app);
    if (parser.isSet(u"tagd"_s))
        Tagd::Connection::instance()->setProgram(parser.value(u"tagd"_s));
    vaultFolder() = parser.value(u"vault"_s);
    if (parser.isSet(u"dark"_s)) {
        QPalette dark;
        const QColor text(0xf2, 0xf2, 0xf7);
        dark.setColor(QPalette::Window, QColor(0x1c, 0x1c, 0x1e));
        dark.setColor(QPalette::WindowText, text);
        dark.setColor(QPalette::Base, QColor(0x2c, 0x2c, 0x2e));
        dark.setColor(QPalette::AlternateBase, QColor(0x3a, 0x3a, 0x3c));
        dark.setColor(QPalette::Text, text);
        dark.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3c));
        dark.setColor(QPalette::ButtonText, text);
        dark.setColor(QPalette::Highlight, QColor(0x0a, 0x84, 0xff));
        dark.setColor(QPalette::HighlightedText, Qt::white);
        dark.setColor(QPalette::PlaceholderText, QColor(0xf2, 0xf2, 0xf7, 0x80));
        dark.setColor(QPalette::Mid, QColor(0x48, 0x48, 0x4a));
        dark.setColor(QPalette::ToolTipBase, QColor(0x2c, 0x2c, 0x2e));
        dark.setColor(QPalette::ToolTipText, text);
        QGuiApplication::setPalette(dark);
    }
    if (parser.isSet(u"rtl"_s))
        QGuiApplication::setLayoutDirection(Qt::RightToLeft);
    if (parser.isSet(u"no-animations"_s))
        Tagd::Connection::instance()->setReducedMotion(true);
    return parser.isSet(u"control"_s);
}

// Answers each line read on stdin with command(line), as one compact JSON line on stdout; quits
// the application at the end of stdin.
inline void serveControl(QCoreApplication &app, std::function<QJsonObject(const QString &)> command)
{
    auto *control = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, &app);
    auto *buffer = new QByteArray;
    QObject::connect(control, &QSocketNotifier::activated, &app, [command, buffer, control] {
        char chunk[4096];
        const ssize_t n = ::read(STDIN_FILENO, chunk, sizeof chunk);
        if (n <= 0) {
            control->setEnabled(false);
            QCoreApplication::quit();
            return;
        }
        buffer->append(chunk, n);
        int newline;
        while ((newline = buffer->indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(buffer->left(newline)).trimmed();
            buffer->remove(0, newline + 1);
            if (line.isEmpty())
                continue;
            const QByteArray out = QJsonDocument(command(line)).toJson(QJsonDocument::Compact) + '\n';
            fwrite(out.constData(), 1, size_t(out.size()), stdout);
            fflush(stdout);
        }
    });
}

// The ink of TEXT drawn black on white in FONT at the scale DPR, in device pixels (the sum of
// each pixel's darkness): what the `ink` command gives a test to compare a title on screen with.
inline double textInk(const QFont &font, const QString &text, double dpr)
{
    const QFontMetricsF fm(font);
    QImage image(QSize(int(std::ceil((fm.horizontalAdvance(text) + 8) * dpr)), int(std::ceil((fm.height() + 8) * dpr))),
                 QImage::Format_RGB32);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QPointF(4, 4 + fm.ascent()), text);
    p.end();
    double ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            ink += (255 - qGray(image.pixel(x, y))) / 255.0;
    return ink;
}

} // namespace TagdDemo
