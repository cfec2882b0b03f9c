// Built against an installed TagdQt by tests/install-check (find_package and pkg-config).
#include <TagdQt/TagCloud>
#include <TagdQt/TagEdit>

#include <cstdio>

int main()
{
    std::printf("TagdQt consumer: %s\n", Tagd::TagEdit::staticMetaObject.className());
    return Tagd::TagCloud::staticMetaObject.propertyOffset() > 0 ? 0 : 1;
}
