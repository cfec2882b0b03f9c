/* The smallest Vala app with a tag entry, through the VAPI made from Tagd-1.0.gir.
 * Built by meson as _build/example-entry-vala; elsewhere: valac --pkg tagd-gtk-1 entry.vala
 * It prints the tags each time they change.
 *
 * SPDX-License-Identifier: MIT
 */
int main (string[] args) {
    var app = new Gtk.Application ("org.tagd.ValaExample", GLib.ApplicationFlags.FLAGS_NONE);
    app.activate.connect (() => {
        var window = new Gtk.ApplicationWindow (app) { title = "Vala tags", default_width = 420 };
        var entry = new Tagd.Entry () { max_tags = 3, transform = Tagd.Transform.UPPERCASE };
        entry.tags_changed.connect (() => print ("tags: %s\n", string.joinv (", ", entry.tags)));
        entry.tag_dropped.connect ((text, reason, index) => print ("dropped: %s %s\n", text, reason.to_string ()));
        var box = new Gtk.Box (Gtk.Orientation.VERTICAL, 0) {
            margin_top = 18, margin_bottom = 18, margin_start = 18, margin_end = 18
        };
        box.append (entry);
        window.child = box;
        window.present ();
        entry.grab_focus ();
    });
    return app.run (args);
}
