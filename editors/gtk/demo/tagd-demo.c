/* tagd-demo: both seed demos in one window, "Recipe tags" and "Pick your interests".
 *
 * Options: --tagd PATH (the tagd executable), --rtl (right-to-left layout). The application exports the action
 * `app.dump` (a file name): it writes the widgets' state, read through their properties, to
 * that file as JSON, so the real-window tests can read the `tags` property from outside; and
 * `app.set-entry` (a property name and a value) to set the entry's properties.
 *
 * SPDX-License-Identifier: MIT
 */
#include <json-glib/json-glib.h>
#include <tagd.h>

static const char *recipe_tags[] = { "vegan", "dinner", "weeknight", NULL };
/* The seed's Suggested row, also the field's vocabulary for the suggestion popover. */
static const char *suggested[] = { "spicy", "gluten-free", "30 minutes", "one pot", NULL };
/* The seed's ten tags and their tints (the system colours of its dark appearance: blue, pink,
 * orange, teal, purple, green, red, indigo, mint, yellow). */
static const char *interest_titles[] = {
  "SwiftUI", "Animation", "Layout", "Glass", "Gestures", "Symbols", "Charts", "Navigation", "Metal", "Widgets", NULL
};
static const char *interest_tints[] = {
  "#0a84ff", "#ff375f", "#ff9f0a", "#40c8e0", "#bf5af2", "#30d158", "#ff453a", "#5e5ce6",
  "#66d4cf", "#ffd60a", NULL
};

/* The seed's look, the same in the light and the dark style (README, "The demo"):
 * - both pages on its dark gradient, indigo at the top to black at the bottom, with white
 *   text and dimmed captions;
 * - titles as libadwaita's title-2 (800 weight, 136 %), which plain GTK does not define;
 * - the field with a 14-point corner radius, a faint white fill and a faint edge, and a
 *   2-point teal border while it has the focus; its chips teal at 16 %, a selected one teal;
 * - the Suggested row as teal capsules with a plus;
 * - the interests page's tags with white semibold titles. */
#define PAGE_TOP "#2a2968"    /* indigo #5e5ce6 at 45 % over black */
#define PAGE_BOTTOM "#000000"
#define TEAL "#30b0c7"
static const char demo_css[] =
  ".page { background-image: linear-gradient(to bottom, " PAGE_TOP ", " PAGE_BOTTOM "); color: white; }\n"
  ".page .dim-label { color: alpha(white, 0.6); }\n"
  ".title-2 { font-size: 136%; font-weight: 800; }\n"
  ".recipe entry.tagd-entry { border-radius: 14px; background-color: alpha(white, 0.08); color: white;"
  "  border: 1px solid alpha(white, 0.12); box-shadow: none; outline: none; }\n"
  ".recipe entry.tagd-entry:focus-within { border-color: transparent; box-shadow: inset 0 0 0 2px " TEAL "; }\n"
  ".recipe entry.tagd-entry > entry.tagd-text { color: white; caret-color: white; }\n"
  ".recipe tagd-chip { background-color: alpha(" TEAL ", 0.16); color: white; }\n"
  ".recipe tagd-chip.selected, .recipe tagd-chip:focus-within { background-color: " TEAL "; color: white; }\n"
  ".recipe tagd-chip > button { color: alpha(white, 0.8); }\n"
  ".recipe button.suggestion { border-radius: 9999px; padding: 2px 12px 2px 8px; min-height: 24px; color: white;"
  "  background: alpha(" TEAL ", 0.18); border: 1px solid alpha(" TEAL ", 0.6); box-shadow: none; }\n"
  ".recipe button.suggestion:hover { background: alpha(" TEAL ", 0.3); }\n"
  ".recipe button.suggestion image { color: " TEAL "; }\n"
  ".interests tagd-cloud > button.tagd-cloud-tag, .notes tagd-cloud > button.tagd-cloud-tag { color: white; font-weight: 600; }\n"
  /* The Notes page: its field as the recipe page's, the list of notes on the same glass. */
  ".notes entry.tagd-entry { border-radius: 14px; background-color: alpha(white, 0.08); color: white;"
  "  border: 1px solid alpha(white, 0.12); box-shadow: none; outline: none; }\n"
  ".notes entry.tagd-entry:focus-within { border-color: transparent; box-shadow: inset 0 0 0 2px " TEAL "; }\n"
  ".notes entry.tagd-entry > entry.tagd-text { color: white; caret-color: white; }\n"
  ".notes tagd-chip { background-color: alpha(" TEAL ", 0.16); color: white; }\n"
  ".notes tagd-chip > button { color: alpha(white, 0.8); }\n"
  ".notes tagd-chip.selected, .notes tagd-chip:focus-within { background-color: " TEAL "; color: white; }\n"
  ".notes list.notes { background-color: alpha(white, 0.08); color: white; border-radius: 14px; }\n"
  ".notes list.notes > row:selected { background-color: alpha(" TEAL ", 0.6); color: white; }\n";

typedef struct {
  GtkWidget *window;
  GtkWidget *stack;
  TagdEntry *entry;
  TagdCloud *cloud;
  GtkWidget *tight;
  GtkWidget *suggestion_buttons[G_N_ELEMENTS (suggested)];
  /* the Notes page */
  TagdCloud *vault_cloud;
  GtkWidget *notes_list;
  TagdEntry *note_entry;
  GtkWidget *note_heading;
  char      *note_path;      /* the note whose tags the entry shows, or NULL */
  gboolean   loading_note;   /* setting the entry's tags from the note: not a user's change */
} Demo;

static Demo demo;

/* What the user saw of the last spacing animation: how many ran, and the x of the second tag
 * ("Swift") at every frame painted while one ran. The tests read these through app.dump. */
static guint animation_runs;
static GArray *animation_xs;
/* ... and every tag's title (its label) at each of those frames: x, y, width, height. */
static GArray *animation_labels;
static gulong after_paint_id;
static char *tagd_program;
/* "text reason announcement" per tag-dropped signal, as the handler saw them. */
static GPtrArray *dropped;
static gboolean rtl;
static char *vault_dir;

/* Caseless comparison for hiding a suggestion once it is a tag (tagd decides for real). */
static gboolean
has_tag (const char *tag)
{
  const char * const *tags = tagd_entry_get_tags (demo.entry);
  g_autofree char *want = g_utf8_casefold (tag, -1);
  for (guint i = 0; tags[i] != NULL; i++)
    {
      g_autofree char *have = g_utf8_casefold (tags[i], -1);
      if (g_strcmp0 (want, have) == 0)
        return TRUE;
    }
  return FALSE;
}

static void
update_suggestions (void)
{
  for (guint i = 0; suggested[i] != NULL; i++)
    gtk_widget_set_visible (demo.suggestion_buttons[i], !has_tag (suggested[i]));
}

static GtkWidget *
scrolled (GtkWidget *page, const char *css_class)
{
  GtkWidget *sw = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (sw), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (sw), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (sw), page);
  gtk_widget_add_css_class (sw, css_class);
  gtk_widget_add_css_class (sw, "page");
  return sw;
}

static void
on_suggestion_clicked (GtkButton *button, gpointer data)
{
  const char *tags[] = { data, NULL };
  tagd_entry_add_tags (demo.entry, tags);
  gtk_widget_grab_focus (GTK_WIDGET (demo.entry));
}

static void
on_after_paint (GdkFrameClock *clock, gpointer data)
{
  GtkWidget *second = gtk_widget_get_next_sibling (gtk_widget_get_first_child (GTK_WIDGET (demo.cloud)));
  graphene_rect_t bounds;

  if (second != NULL && gtk_widget_compute_bounds (second, GTK_WIDGET (demo.cloud), &bounds))
    {
      double x = bounds.origin.x;
      g_array_append_val (animation_xs, x);
    }
  for (GtkWidget *b = gtk_widget_get_first_child (GTK_WIDGET (demo.cloud)); b != NULL; b = gtk_widget_get_next_sibling (b))
    {
      GtkWidget *label = gtk_widget_get_first_child (b);
      double v[4] = { 0, 0, 0, 0 };
      if (label != NULL && gtk_widget_compute_bounds (label, GTK_WIDGET (demo.cloud), &bounds))
        {
          v[0] = bounds.origin.x;
          v[1] = bounds.origin.y;
          v[2] = bounds.size.width;
          v[3] = bounds.size.height;
        }
      g_array_append_vals (animation_labels, v, 4);
    }
  if (!tagd_cloud_get_animating (demo.cloud))
    g_clear_signal_handler (&after_paint_id, clock);
}

static void
on_animating_changed (GObject *cloud, GParamSpec *pspec, gpointer data)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (cloud));

  if (!tagd_cloud_get_animating (demo.cloud) || clock == NULL)
    return;
  animation_runs++;
  g_array_set_size (animation_xs, 0);
  g_array_set_size (animation_labels, 0);
  if (after_paint_id == 0)
    after_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), NULL);
}

static void
on_tight_changed (GObject *sw, GParamSpec *pspec, gpointer data)
{
  tagd_cloud_set_spacing (demo.cloud, gtk_switch_get_active (GTK_SWITCH (sw)) ? 3 : 18);
}

static void
on_dropped (TagdEntry *entry, const char *text, TagdDropReason reason, int index, gpointer data)
{
  g_autoptr (GEnumClass) klass = g_type_class_ref (TAGD_TYPE_DROP_REASON);
  GEnumValue *value = g_enum_get_value (klass, reason);
  g_ptr_array_add (dropped, g_strdup_printf ("%s|%s|%s", text, value ? value->value_nick : "?",
                                             tagd_entry_get_announcement (entry)));
}

static GtkWidget *
heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
caption (const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static GtkWidget *
recipe_page (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *row = gtk_flow_box_new ();
  GtkWidget *label;

  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);

  label = heading ("Recipe tags");
  gtk_widget_add_css_class (label, "title-2");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), caption ("Press return or type a comma to add one"));
  demo.entry = g_object_new (TAGD_TYPE_ENTRY, "tags", recipe_tags, "prompt", "Add a tag",
                             "suggestions", suggested, NULL);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (demo.entry), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (demo.entry));

  label = heading ("Suggested");
  gtk_widget_set_margin_top (label, 12);
  gtk_box_append (GTK_BOX (box), label);
  gtk_flow_box_set_selection_mode (GTK_FLOW_BOX (row), GTK_SELECTION_NONE);
  gtk_flow_box_set_column_spacing (GTK_FLOW_BOX (row), 6);
  gtk_flow_box_set_row_spacing (GTK_FLOW_BOX (row), 6);
  gtk_flow_box_set_homogeneous (GTK_FLOW_BOX (row), FALSE);
  gtk_flow_box_set_max_children_per_line (GTK_FLOW_BOX (row), 8);
  for (guint i = 0; suggested[i] != NULL; i++)
    {
      GtkWidget *b = gtk_button_new ();
      GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      g_autofree char *name = g_strdup_printf ("Add %s", suggested[i]);
      GtkWidget *plus = g_object_new (GTK_TYPE_IMAGE, "icon-name", "list-add-symbolic",
                                      "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
      gtk_box_append (GTK_BOX (content), plus);
      gtk_box_append (GTK_BOX (content), gtk_label_new (suggested[i]));
      gtk_button_set_child (GTK_BUTTON (b), content);
      gtk_widget_add_css_class (b, "suggestion");
      gtk_accessible_update_property (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
      g_signal_connect (b, "clicked", G_CALLBACK (on_suggestion_clicked), (gpointer) suggested[i]);
      demo.suggestion_buttons[i] = b;
      gtk_flow_box_append (GTK_FLOW_BOX (row), b);
      /* Tab goes straight to the buttons, not to the flow box children around them. */
      gtk_widget_set_focusable (gtk_widget_get_parent (b), FALSE);
      /* Hide the flow box child with its button. */
      g_object_bind_property (b, "visible", gtk_widget_get_parent (b), "visible", G_BINDING_SYNC_CREATE);
    }
  gtk_box_append (GTK_BOX (box), row);
  g_signal_connect (demo.entry, "tags-changed", G_CALLBACK (update_suggestions), NULL);
  g_signal_connect (demo.entry, "tag-dropped", G_CALLBACK (on_dropped), NULL);
  update_suggestions ();
  return box;
}

static GtkWidget *
interests_page (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label;
  const char *selected[] = { "SwiftUI", NULL };

  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);

  label = heading ("Pick your interests");
  gtk_widget_add_css_class (label, "title-2");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), caption ("Select the topics you follow. Close tags melt together."));
  demo.cloud = TAGD_CLOUD (tagd_cloud_new ());
  tagd_cloud_set_tags (demo.cloud, interest_titles, interest_tints);
  tagd_cloud_set_selection (demo.cloud, selected);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (demo.cloud), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  gtk_widget_set_margin_top (GTK_WIDGET (demo.cloud), 12);
  gtk_widget_set_margin_bottom (GTK_WIDGET (demo.cloud), 12);
  animation_xs = g_array_new (FALSE, FALSE, sizeof (double));
  animation_labels = g_array_new (FALSE, FALSE, sizeof (double));
  g_signal_connect (demo.cloud, "notify::animating", G_CALLBACK (on_animating_changed), NULL);

  label = gtk_label_new ("Tight spacing");
  gtk_widget_set_hexpand (label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  demo.tight = gtk_switch_new ();
  gtk_widget_set_valign (demo.tight, GTK_ALIGN_CENTER);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (demo.tight), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  g_signal_connect (demo.tight, "notify::active", G_CALLBACK (on_tight_changed), NULL);
  gtk_box_append (GTK_BOX (row), label);
  gtk_box_append (GTK_BOX (row), demo.tight);
  /* The switch sits above the cloud, whose height changes while it animates: it never moves
   * under the pointer. */
  gtk_box_append (GTK_BOX (box), row);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (demo.cloud));
  return box;
}

/* ---- the Notes page: a vault's tags, the notes carrying the selected ones, and the tags of
 * the note picked, written back into its front matter through tagd's document/setTags. */

/* A {line, character} position (code points: the connection asks for utf-32) as a byte offset. */
static gsize
byte_offset (const char *text, gint64 line, gint64 character)
{
  const char *p = text;
  while (line > 0 && *p)
    {
      if (*p == '\n')
        line--;
      p++;
    }
  while (character > 0 && *p && *p != '\n')
    {
      p = g_utf8_next_char (p);
      character--;
    }
  return p - text;
}

static gint64
position_part (GVariant *range, const char *end, const char *key)
{
  g_autoptr (GVariant) pos = g_variant_lookup_value (range, end, NULL);
  g_autoptr (GVariant) v = pos != NULL ? g_variant_lookup_value (pos, key, NULL) : NULL;
  if (v == NULL)
    return 0;
  if (g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT))
    {
      g_autoptr (GVariant) inner = g_variant_get_variant (v);
      return g_variant_is_of_type (inner, G_VARIANT_TYPE_INT64) ? g_variant_get_int64 (inner) : (gint64) g_variant_get_double (inner);
    }
  return g_variant_is_of_type (v, G_VARIANT_TYPE_INT64) ? g_variant_get_int64 (v) : (gint64) g_variant_get_double (v);
}

static GVariant *
unbox (GVariant *v)
{
  return g_variant_is_of_type (v, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (v) : g_variant_ref (v);
}

typedef struct {
  char *path;
  char *text;
} NoteWrite;

static void
on_set_tags (GObject *source, GAsyncResult *res, gpointer data)
{
  NoteWrite *w = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) result = tagd_connection_call_finish (TAGD_CONNECTION (source), res, &error);
  g_autoptr (GVariant) edits = result != NULL ? g_variant_lookup_value (result, "edits", NULL) : NULL;
  GString *text = g_string_new (w->text);
  gsize n = edits != NULL ? g_variant_n_children (edits) : 0;

  if (result == NULL)
    g_printerr ("document/setTags: %s\n", error->message);
  /* The edits do not overlap: applied from the last to the first, each offset stays valid. */
  for (gsize k = n; k > 0; k--)
    {
      g_autoptr (GVariant) it = g_variant_get_child_value (edits, k - 1);
      g_autoptr (GVariant) e = unbox (it);
      g_autoptr (GVariant) range_v = g_variant_lookup_value (e, "range", NULL);
      g_autoptr (GVariant) range = range_v != NULL ? unbox (range_v) : NULL;
      const char *new_text = "";
      gsize a, z;
      if (range == NULL)
        continue;
      g_variant_lookup (e, "newText", "&s", &new_text);
      a = byte_offset (text->str, position_part (range, "start", "line"), position_part (range, "start", "character"));
      z = byte_offset (text->str, position_part (range, "end", "line"), position_part (range, "end", "character"));
      g_string_erase (text, a, z - a);
      g_string_insert (text, a, new_text);
    }
  if (result != NULL && n > 0 && !g_file_set_contents (w->path, text->str, -1, &error))
    g_printerr ("%s: %s\n", w->path, error->message);
  /* tagd sees the file change by itself (inotify); ask the cloud again once it has. */
  if (n > 0)
    {
      g_timeout_add_once (700, (GSourceOnceFunc) tagd_cloud_reload, demo.vault_cloud);
      g_timeout_add_once (2000, (GSourceOnceFunc) tagd_cloud_reload, demo.vault_cloud);
    }
  g_string_free (text, TRUE);
  g_free (w->path);
  g_free (w->text);
  g_free (w);
}

/* The user changed the note's tags: tagd says how its front matter must change. */
static void
on_note_tags_changed (TagdEntry *entry, gpointer data)
{
  g_autofree char *text = NULL;
  NoteWrite *w;

  if (demo.loading_note || demo.note_path == NULL || !g_file_get_contents (demo.note_path, &text, NULL, NULL))
    return;
  w = g_new0 (NoteWrite, 1);
  w->path = g_strdup (demo.note_path);
  w->text = g_steal_pointer (&text);
  tagd_connection_call_async (tagd_connection_get_default (), "document/setTags",
                              g_variant_new_parsed ("{'text': <%s>, 'tags': <%^as>}", w->text,
                                                    tagd_entry_get_tags (entry)),
                              NULL, on_set_tags, w);
}

static void
on_note_tags (GObject *source, GAsyncResult *res, gpointer data)
{
  g_autofree char *path = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) result = tagd_connection_call_finish (TAGD_CONNECTION (source), res, &error);
  g_autofree const char **tags = NULL;
  g_autoptr (GVariant) list = NULL;

  if (result == NULL)
    {
      g_printerr ("document/tags: %s\n", error->message);
      return;
    }
  if (g_strcmp0 (path, demo.note_path) != 0)
    return;
  list = g_variant_lookup_value (result, "tags", NULL);
  tags = g_new0 (const char *, (list ? g_variant_n_children (list) : 0) + 1);
  for (gsize i = 0; list != NULL && i < g_variant_n_children (list); i++)
    {
      g_autoptr (GVariant) it = g_variant_get_child_value (list, i);
      g_autoptr (GVariant) t = unbox (it);
      tags[i] = g_variant_get_string (t, NULL);
    }
  demo.loading_note = TRUE;
  tagd_entry_set_tags (demo.note_entry, tags);
  demo.loading_note = FALSE;
  gtk_widget_set_sensitive (GTK_WIDGET (demo.note_entry), TRUE);
}

static void
on_note_selected (GtkListBox *list, GtkListBoxRow *row, gpointer data)
{
  const char *uri = row != NULL ? g_object_get_data (G_OBJECT (row), "uri") : NULL;
  g_autofree char *text = NULL;
  g_autofree char *heading = NULL;

  g_clear_pointer (&demo.note_path, g_free);
  if (uri == NULL)
    return;
  demo.note_path = g_filename_from_uri (uri, NULL, NULL);
  heading = g_strdup_printf ("Tags of %s", (const char *) g_object_get_data (G_OBJECT (row), "title"));
  gtk_label_set_text (GTK_LABEL (demo.note_heading), heading);
  if (demo.note_path == NULL || !g_file_get_contents (demo.note_path, &text, NULL, NULL))
    return;
  tagd_connection_call_async (tagd_connection_get_default (), "document/tags",
                              g_variant_new_parsed ("{'text': <%s>}", text), NULL, on_note_tags,
                              g_strdup (demo.note_path));
}

/* The cloud's selection names other notes: the list shows them. */
static void
on_notes_changed (GObject *cloud, GParamSpec *pspec, gpointer data)
{
  const char * const *uris = tagd_cloud_get_notes (demo.vault_cloud);
  const char * const *titles = tagd_cloud_get_note_titles (demo.vault_cloud);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (demo.notes_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (demo.notes_list), child);
  for (guint i = 0; uris[i] != NULL; i++)
    {
      GtkWidget *row = gtk_list_box_row_new ();
      GtkWidget *label = gtk_label_new (titles[i]);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_margin_top (label, 6);
      gtk_widget_set_margin_bottom (label, 6);
      gtk_widget_set_margin_start (label, 10);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, titles[i], -1);
      g_object_set_data_full (G_OBJECT (row), "uri", g_strdup (uris[i]), g_free);
      g_object_set_data_full (G_OBJECT (row), "title", g_strdup (titles[i]), g_free);
      gtk_list_box_append (GTK_LIST_BOX (demo.notes_list), row);
    }
}

static GtkWidget *
notes_page (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *label;

  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);

  label = heading ("Notes");
  gtk_widget_add_css_class (label, "title-2");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), caption (vault_dir != NULL ? "Pick tags to see the notes that carry them all."
                                                            : "No notes: start the demo with --vault DIR."));
  demo.vault_cloud = TAGD_CLOUD (tagd_cloud_new ());
  gtk_accessible_update_relation (GTK_ACCESSIBLE (demo.vault_cloud), GTK_ACCESSIBLE_RELATION_LABELLED_BY, label, NULL, -1);
  g_signal_connect (demo.vault_cloud, "notify::notes", G_CALLBACK (on_notes_changed), NULL);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (demo.vault_cloud));

  demo.notes_list = gtk_list_box_new ();
  gtk_widget_add_css_class (demo.notes_list, "notes");
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (demo.notes_list), GTK_SELECTION_SINGLE);
  g_signal_connect (demo.notes_list, "row-selected", G_CALLBACK (on_note_selected), NULL);
  gtk_box_append (GTK_BOX (box), demo.notes_list);

  demo.note_heading = heading ("Tags of the selected note");
  gtk_widget_set_margin_top (demo.note_heading, 12);
  gtk_box_append (GTK_BOX (box), demo.note_heading);
  demo.note_entry = g_object_new (TAGD_TYPE_ENTRY, "prompt", "Add a tag", NULL);
  gtk_widget_add_css_class (GTK_WIDGET (demo.note_entry), "note-tags");
  gtk_widget_set_sensitive (GTK_WIDGET (demo.note_entry), FALSE);
  gtk_accessible_update_relation (GTK_ACCESSIBLE (demo.note_entry), GTK_ACCESSIBLE_RELATION_LABELLED_BY, demo.note_heading, NULL, -1);
  g_signal_connect (demo.note_entry, "tags-changed", G_CALLBACK (on_note_tags_changed), NULL);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (demo.note_entry));
  if (vault_dir != NULL)
    {
      tagd_cloud_set_vault (demo.vault_cloud, vault_dir);
      tagd_entry_set_vault (demo.note_entry, vault_dir);
    }
  return box;
}

static void
add_strv (JsonBuilder *b, const char *name, const char * const *v)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_array (b);
  for (guint i = 0; v != NULL && v[i] != NULL; i++)
    json_builder_add_string_value (b, v[i]);
  json_builder_end_array (b);
}

static void
on_dump (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) tags = NULL;
  g_auto (GStrv) selection = NULL;
  g_autofree int *groups = NULL;
  g_autofree char *announcement = NULL;
  TagdConnection *conn = tagd_connection_get_default ();
  guint n = 0;
  double spacing = 0;
  gboolean animating = FALSE;
  GPtrArray *visible = g_ptr_array_new ();

  /* Read through the GObject properties, as an application would. */
  g_object_get (demo.entry, "tags", &tags, "announcement", &announcement, NULL);
  g_object_get (demo.cloud, "selection", &selection, "spacing", &spacing, "animating", &animating, NULL);
  groups = tagd_cloud_get_groups (demo.cloud, &n);
  for (guint i = 0; suggested[i] != NULL; i++)
    if (gtk_widget_get_visible (demo.suggestion_buttons[i]))
      g_ptr_array_add (visible, (gpointer) suggested[i]);
  g_ptr_array_add (visible, NULL);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "page");
  json_builder_add_string_value (b, gtk_stack_get_visible_child_name (GTK_STACK (demo.stack)));
  json_builder_set_member_name (b, "entry");
  json_builder_begin_object (b);
  add_strv (b, "tags", (const char * const *) tags);
  json_builder_set_member_name (b, "draft");
  json_builder_add_string_value (b, tagd_entry_get_draft (demo.entry));
  json_builder_set_member_name (b, "announcement");
  json_builder_add_string_value (b, announcement ? announcement : "");
  json_builder_set_member_name (b, "selected");
  json_builder_add_int_value (b, tagd_entry_get_selected (demo.entry));
  json_builder_set_member_name (b, "dropped");
  json_builder_begin_array (b);
  for (guint i = 0; i < dropped->len; i++)
    json_builder_add_string_value (b, dropped->pdata[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "width");
  json_builder_add_int_value (b, gtk_widget_get_width (GTK_WIDGET (demo.entry)));
  json_builder_set_member_name (b, "height");
  json_builder_add_int_value (b, gtk_widget_get_height (GTK_WIDGET (demo.entry)));
  json_builder_end_object (b);
  add_strv (b, "suggestions", (const char * const *) visible->pdata);
  json_builder_set_member_name (b, "cloud");
  json_builder_begin_object (b);
  add_strv (b, "selection", (const char * const *) selection);
  json_builder_set_member_name (b, "spacing");
  json_builder_add_double_value (b, spacing);
  json_builder_set_member_name (b, "animating");
  json_builder_add_boolean_value (b, animating);
  json_builder_set_member_name (b, "groups");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    json_builder_add_int_value (b, groups[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "animationRuns");
  json_builder_add_int_value (b, animation_runs);
  json_builder_set_member_name (b, "animationXs");
  json_builder_begin_array (b);
  for (guint i = 0; i < animation_xs->len; i++)
    json_builder_add_double_value (b, g_array_index (animation_xs, double, i));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "animationLabels");
  json_builder_begin_array (b);
  for (guint i = 0; i < animation_labels->len; i++)
    json_builder_add_double_value (b, g_array_index (animation_labels, double, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "notes");
  json_builder_begin_object (b);
  add_strv (b, "tags", tagd_cloud_get_titles (demo.vault_cloud));
  add_strv (b, "selection", tagd_cloud_get_selection (demo.vault_cloud));
  add_strv (b, "uris", tagd_cloud_get_notes (demo.vault_cloud));
  add_strv (b, "titles", tagd_cloud_get_note_titles (demo.vault_cloud));
  add_strv (b, "noteTags", tagd_entry_get_tags (demo.note_entry));
  json_builder_set_member_name (b, "note");
  json_builder_add_string_value (b, demo.note_path ? demo.note_path : "");
  json_builder_end_object (b);
  json_builder_set_member_name (b, "tagdPid");
  json_builder_add_int_value (b, tagd_connection_get_pid (conn));
  json_builder_set_member_name (b, "restarts");
  json_builder_add_int_value (b, tagd_connection_get_restart_count (conn));
  json_builder_end_object (b);
  g_ptr_array_free (visible, TRUE);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  g_file_set_contents (g_variant_get_string (parameter, NULL), text, -1, NULL);
}

/* app.set-entry (name, value): sets a property of the entry, as application code would. */
static void
on_set_entry (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  const char *name;
  g_autoptr (GVariant) value = NULL;
  GValue gvalue = G_VALUE_INIT;

  GParamSpec *pspec;

  g_variant_get (parameter, "(&sv)", &name, &value);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (demo.entry), name);
  if (pspec != NULL && G_IS_PARAM_SPEC_ENUM (pspec) && g_variant_is_of_type (value, G_VARIANT_TYPE_INT32))
    {
      g_value_init (&gvalue, pspec->value_type);
      g_value_set_enum (&gvalue, g_variant_get_int32 (value));
    }
  else
    g_dbus_gvariant_to_gvalue (value, &gvalue);
  g_object_set_property (G_OBJECT (demo.entry), name, &gvalue);
  g_value_unset (&gvalue);
}

static void
on_activate (GApplication *app, gpointer data)
{
  GtkWidget *header, *switcher;

  if (demo.window != NULL)
    {
      gtk_window_present (GTK_WINDOW (demo.window));
      return;
    }
  if (tagd_program != NULL)
    tagd_connection_set_program (tagd_connection_get_default (), tagd_program);
  if (rtl)
    gtk_widget_set_default_direction (GTK_TEXT_DIR_RTL);

  dropped = g_ptr_array_new_with_free_func (g_free);
  demo.window = gtk_application_window_new (GTK_APPLICATION (app));
  gtk_window_set_title (GTK_WINDOW (demo.window), "Tags");
  gtk_window_set_default_size (GTK_WINDOW (demo.window), 560, 420);

  demo.stack = gtk_stack_new ();
  gtk_stack_set_transition_type (GTK_STACK (demo.stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE);
  {
    GtkCssProvider *provider = gtk_css_provider_new ();
    gtk_css_provider_load_from_data (provider, demo_css, -1);
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (provider),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    g_object_unref (provider);
  }
  gtk_stack_add_titled (GTK_STACK (demo.stack), scrolled (recipe_page (), "recipe"), "recipe", "Recipe tags");
  gtk_stack_add_titled (GTK_STACK (demo.stack), scrolled (interests_page (), "interests"), "interests", "Pick your interests");
  gtk_stack_add_titled (GTK_STACK (demo.stack), scrolled (notes_page (), "notes"), "notes", "Notes");
  gtk_stack_set_visible_child_name (GTK_STACK (demo.stack), "recipe");

  header = gtk_header_bar_new ();
  switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (demo.stack));
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (header), switcher);
  gtk_window_set_titlebar (GTK_WINDOW (demo.window), header);
  gtk_window_set_child (GTK_WINDOW (demo.window), demo.stack);

  gtk_window_present (GTK_WINDOW (demo.window));
  gtk_widget_grab_focus (GTK_WIDGET (demo.entry));
}

int
main (int argc, char *argv[])
{
  g_autoptr (GtkApplication) app = gtk_application_new ("org.tagd.Demo", G_APPLICATION_DEFAULT_FLAGS);
  GSimpleAction *dump = g_simple_action_new ("dump", G_VARIANT_TYPE_STRING);
  const GOptionEntry options[] = {
    { "tagd", 0, 0, G_OPTION_ARG_FILENAME, &tagd_program, "The tagd executable", "PATH" },
    { "rtl", 0, 0, G_OPTION_ARG_NONE, &rtl, "Lay the window out right to left", NULL },
    { "vault", 0, 0, G_OPTION_ARG_FILENAME, &vault_dir, "A folder of notes for the Notes page (its notes are written to)", "DIR" },
    { NULL }
  };

  g_application_add_main_option_entries (G_APPLICATION (app), options);
  g_signal_connect (dump, "activate", G_CALLBACK (on_dump), NULL);
  g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (dump));
  g_object_unref (dump);
  dump = g_simple_action_new ("set-entry", G_VARIANT_TYPE ("(sv)"));
  g_signal_connect (dump, "activate", G_CALLBACK (on_set_entry), NULL);
  g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (dump));
  g_object_unref (dump);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}
