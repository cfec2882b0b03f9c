/* The smallest C app with a tag entry. Built by meson as _build/example-entry.
 *
 * SPDX-License-Identifier: MIT
 */
#include <tagd.h>

static void
on_tags_changed (TagdEntry *entry, gpointer data)
{
  g_autofree char *joined = g_strjoinv (", ", (char **) tagd_entry_get_tags (entry));
  g_print ("tags: %s\n", joined);
}

static void
on_activate (GtkApplication *app, gpointer data)
{
  GtkWidget *window = gtk_application_window_new (app);
  const char *tags[] = { "c", NULL };
  GtkWidget *entry = g_object_new (TAGD_TYPE_ENTRY,
                                   "prompt", "Add a tag",
                                   "tags", tags,
                                   "transform", TAGD_TRANSFORM_LOWERCASE,
                                   NULL);

  g_signal_connect (entry, "tags-changed", G_CALLBACK (on_tags_changed), NULL);
  gtk_widget_set_margin_start (entry, 18);
  gtk_widget_set_margin_end (entry, 18);
  gtk_widget_set_margin_top (entry, 18);
  gtk_widget_set_margin_bottom (entry, 18);
  gtk_window_set_title (GTK_WINDOW (window), "C tags");
  gtk_window_set_default_size (GTK_WINDOW (window), 420, -1);
  gtk_window_set_child (GTK_WINDOW (window), entry);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char *argv[])
{
  g_autoptr (GtkApplication) app = gtk_application_new ("org.tagd.CExample", G_APPLICATION_DEFAULT_FLAGS);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
