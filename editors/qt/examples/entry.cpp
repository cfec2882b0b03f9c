// SPDX-License-Identifier: MIT
// The smallest program with a tag entry: the README's C++ example.
#include <TagdQt/TagEdit>

#include <QtCore/QDebug>
#include <QtWidgets/QApplication>
#include <QtWidgets/QVBoxLayout>
#include <QtWidgets/QWidget>


int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QWidget window;
    auto *layout = new QVBoxLayout(&window);
    auto *tags = new Tagd::TagEdit;
    tags->setPrompt(QStringLiteral("Add a tag"));
    tags->setTags({QStringLiteral("qt")});
    tags->setTransform(Tagd::TagEdit::Transform::Lowercase);
    tags->setSuggestions({QStringLiteral("cmake"), QStringLiteral("widgets"), QStringLiteral("kde")});
    QObject::connect(tags, &Tagd::TagEdit::tagsChanged, [tags] {
        qInfo() << "tags:" << tags->tags();
    });
    layout->addWidget(tags);
    window.show();
    return app.exec();
}
