#!/usr/bin/env -S gjs -m
// The smallest GJS app with a tag entry, through GObject Introspection (Tagd-1.0), on
// libadwaita (the selected chip takes its accent colour). Prints the tags each time they change.
// From a build tree: GI_TYPELIB_PATH=_build LD_LIBRARY_PATH=_build gjs -m examples/entry.js
import Adw from 'gi://Adw?version=1';
import Gtk from 'gi://Gtk?version=4.0';
import Tagd from 'gi://Tagd?version=1.0';

const app = new Adw.Application({application_id: 'org.tagd.GjsExample'});
app.connect('activate', () => {
    const window = new Adw.ApplicationWindow({application: app, title: 'GJS tags', default_width: 420});
    const entry = new Tagd.Entry({tags: ['gjs'], deny: ['spam']});
    print(`prompt: ${entry.prompt}`);
    entry.connect('tags-changed', e => print(`tags: ${e.tags.join(', ')}`));
    entry.connect('tag-dropped', (e, text, reason) =>
        print(`dropped: ${text} ${reason === Tagd.DropReason.DENIED ? 'denied' : reason} | ${e.announcement}`));
    const box = new Gtk.Box({orientation: Gtk.Orientation.VERTICAL, margin_top: 18, margin_bottom: 18,
        margin_start: 18, margin_end: 18});
    box.append(entry);
    window.set_content(box);
    window.present();
    entry.grab_focus();
});
app.run([]);
