// SPDX-License-Identifier: MIT
//
// The library's own strings ("Remove %1", "Suggestions") in the user's language, as a GTK
// library's gettext domain would be: the catalogues (i18n/tagdqt_<lang>.ts, compiled by Qt's
// lrelease) are resources of this library, and a translator for the locale's languages is
// installed when the application starts (or at once, when the library is loaded later, as the
// QML plugin loads it). Sentences tagd says come from tagd, in the language `initialize` named.

#include <QtCore/QCoreApplication>
#include <QtCore/QLocale>
#include <QtCore/QTranslator>

namespace {

void installTagdQtTranslator()
{
    auto *translator = new QTranslator(QCoreApplication::instance());
    if (translator->load(QLocale(), QStringLiteral("tagdqt"), QStringLiteral("_"), QStringLiteral(":/tagdqt/i18n")))
        QCoreApplication::installTranslator(translator);
    else
        delete translator; // English, or a language without a catalogue
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(installTagdQtTranslator)
