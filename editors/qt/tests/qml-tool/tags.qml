// SPDX-License-Identifier: MIT
// Run by tests/install-check with Qt's own `qml` tool and nothing but QML_IMPORT_PATH, as the
// README says: prints what the TagEdit holds once tagd has opened it, then quits.
import QtQuick
import QtQuick.Window
import Tagd

Window {
    width: 320
    height: 80
    visible: true

    TagEdit {
        width: parent.width
        tags: ["one", "two", "ONE"]
        onTagsChanged: {
            console.log("Tagd via qml: " + tags.join(","))
            Qt.quit()
        }
    }
}
