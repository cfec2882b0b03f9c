/* tagd-chip.c: one tag of a TagdEntry: a group named by its tag, holding the tag's label and a
 * "Remove <tag>" button. The button is what holds the keyboard focus while the chip is selected,
 * so a screen reader hears "Remove <tag> push button" and an announcement given then reaches it.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tagd-chip.h"

G_DEFINE_FINAL_TYPE (TagdChip, tagd_chip, GTK_TYPE_WIDGET)

static void
tagd_chip_dispose (GObject *object)
{
  TagdChip *chip = TAGD_CHIP (object);
  g_clear_handle_id (&chip->flash_source, g_source_remove);
  g_clear_pointer (&chip->label, gtk_widget_unparent);
  g_clear_pointer (&chip->editor, gtk_widget_unparent);
  g_clear_pointer (&chip->button, gtk_widget_unparent);
  G_OBJECT_CLASS (tagd_chip_parent_class)->dispose (object);
}

static void
tagd_chip_finalize (GObject *object)
{
  g_free (TAGD_CHIP (object)->tag);
  G_OBJECT_CLASS (tagd_chip_parent_class)->finalize (object);
}

/* A flashing chip (a duplicate of it was typed) is drawn with the warning colour over its own
 * fill, whatever colour the application's CSS gives chips: the flash is always seen. */
static void
tagd_chip_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TagdChip *chip = TAGD_CHIP (widget);

  graphene_rect_t r;

  /* The chip's whole box, padding included (the origin is its content box's). */
  if (!gtk_widget_compute_bounds (widget, widget, &r))
    graphene_rect_init (&r, 0, 0, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  if (chip->flash_source != 0)
    {
      GskRoundedRect rr;
      GdkRGBA c;

      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "warning_color", &c))
        gdk_rgba_parse (&c, "#e5a50a");
      G_GNUC_END_IGNORE_DEPRECATIONS
      c.alpha = 0.6;
      gsk_rounded_rect_init_from_rect (&rr, &r, r.size.height / 2.0);
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, &c, &r);
      gtk_snapshot_pop (snapshot);
    }
  if (chip->flagged)
    {
      /* A tag kept though it breaks a rule: an error-coloured ring and tint, drawn here so
       * that an application's chip colour cannot hide it. */
      GskRoundedRect rr;
      GdkRGBA c, ring[4];
      float widths[4] = { 2, 2, 2, 2 };

      G_GNUC_BEGIN_IGNORE_DEPRECATIONS
      if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "error_color", &c))
        gdk_rgba_parse (&c, "#e01b24");
      G_GNUC_END_IGNORE_DEPRECATIONS
      gsk_rounded_rect_init_from_rect (&rr, &r, r.size.height / 2.0);
      for (int k = 0; k < 4; k++)
        ring[k] = c;
      c.alpha = 0.4;
      gtk_snapshot_push_rounded_clip (snapshot, &rr);
      gtk_snapshot_append_color (snapshot, &c, &r);
      gtk_snapshot_pop (snapshot);
      gtk_snapshot_append_border (snapshot, &rr, widths, ring);
    }
  GTK_WIDGET_CLASS (tagd_chip_parent_class)->snapshot (widget, snapshot);
}

/* tagd flags the tag (it breaks a rule set after it was added) or no longer does. @why, tagd's
 * sentence about it, is the chip's tooltip and accessible description. */
void
_tagd_chip_set_flagged (TagdChip *chip, gboolean flagged, const char *why)
{
  if (chip->flagged == flagged)
    return;
  chip->flagged = flagged;
  if (flagged)
    gtk_widget_add_css_class (GTK_WIDGET (chip), "flagged");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (chip), "flagged");
  gtk_widget_set_tooltip_text (chip->label, flagged ? why : NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  flagged && why != NULL ? why : "", -1);
  gtk_accessible_update_state (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_STATE_INVALID,
                               flagged ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
  gtk_widget_queue_draw (GTK_WIDGET (chip));
}

static void
tagd_chip_class_init (TagdChipClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  widget_class->snapshot = tagd_chip_snapshot;
  G_OBJECT_CLASS (klass)->dispose = tagd_chip_dispose;
  G_OBJECT_CLASS (klass)->finalize = tagd_chip_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tagd-chip");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_chip_init (TagdChip *chip)
{
}

TagdChip *
_tagd_chip_new (const char *tag)
{
  TagdChip *chip = g_object_new (TAGD_TYPE_CHIP, NULL);
  /* TRANSLATORS: the accessible name and tooltip of a tag's remove button; %s is the tag */
  g_autofree char *remove = g_strdup_printf (_("Remove %s"), tag);
  GtkWidget *icon;

  chip->tag = g_strdup (tag);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "tagd-chip");
  chip->label = gtk_label_new (tag);
  gtk_label_set_ellipsize (GTK_LABEL (chip->label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (chip->label), TRUE);
  gtk_widget_set_parent (chip->label, GTK_WIDGET (chip));
  chip->button = gtk_button_new ();
  /* An icon-only button: the image is decoration, or a screen reader reads "GtkImage" first. */
  icon = g_object_new (GTK_TYPE_IMAGE, "icon-name", "window-close-symbolic",
                       "accessible-role", GTK_ACCESSIBLE_ROLE_PRESENTATION, NULL);
  gtk_button_set_child (GTK_BUTTON (chip->button), icon);
  gtk_widget_add_css_class (chip->button, "flat");
  gtk_widget_add_css_class (chip->button, "circular");
  gtk_widget_set_focus_on_click (chip->button, FALSE);
  gtk_widget_set_tooltip_text (chip->button, remove);
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip->button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, remove, -1);
  gtk_widget_set_parent (chip->button, GTK_WIDGET (chip));
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tag, -1);
  return chip;
}

/* The tag is edited where it stands: a frameless entry takes the label's place, holding the
 * tag's text, all of it selected, with the keyboard focus. Named "Edit <tag>" for a screen
 * reader (which then reads the text). */
GtkWidget *
_tagd_chip_begin_edit (TagdChip *chip)
{
  /* TRANSLATORS: the accessible name of the text in which a tag is edited; %s is the tag */
  g_autofree char *name = g_strdup_printf (_("Edit %s"), chip->tag);

  if (chip->editor != NULL)
    return chip->editor;
  chip->editor = gtk_entry_new ();
  gtk_entry_set_has_frame (GTK_ENTRY (chip->editor), FALSE);
  gtk_widget_add_css_class (chip->editor, "tagd-chip-editor");
  gtk_editable_set_text (GTK_EDITABLE (chip->editor), chip->tag);
  gtk_editable_set_width_chars (GTK_EDITABLE (chip->editor), MAX ((int) g_utf8_strlen (chip->tag, -1) + 2, 6));
  gtk_accessible_update_property (GTK_ACCESSIBLE (chip->editor), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  gtk_widget_insert_after (chip->editor, GTK_WIDGET (chip), chip->label);
  gtk_widget_set_visible (chip->label, FALSE);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "editing");
  gtk_widget_grab_focus (chip->editor);
  gtk_editable_select_region (GTK_EDITABLE (chip->editor), 0, -1);
  return chip->editor;
}

/* Back to the label; returns the text edited (the caller decides what becomes of it). */
char *
_tagd_chip_end_edit (TagdChip *chip)
{
  char *text;

  if (chip->editor == NULL)
    return NULL;
  text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (chip->editor)));
  gtk_widget_set_visible (chip->label, TRUE);
  gtk_widget_remove_css_class (GTK_WIDGET (chip), "editing");
  g_clear_pointer (&chip->editor, gtk_widget_unparent);
  return text;
}

static gboolean
unflash_cb (gpointer data)
{
  TagdChip *chip = data;
  chip->flash_source = 0;
  gtk_widget_remove_css_class (GTK_WIDGET (chip), "flash");
  gtk_widget_queue_draw (GTK_WIDGET (chip));
  return G_SOURCE_REMOVE;
}

/* A duplicate was typed: the equal chip flashes for 0.9 s. */
void
_tagd_chip_flash (TagdChip *chip)
{
  g_clear_handle_id (&chip->flash_source, g_source_remove);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "flash");
  chip->flash_source = g_timeout_add (900, unflash_cb, chip);
  gtk_widget_queue_draw (GTK_WIDGET (chip));
}

void
_tagd_chip_set_selected (TagdChip *chip, gboolean selected)
{
  if (selected)
    gtk_widget_add_css_class (GTK_WIDGET (chip), "selected");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (chip), "selected");
  gtk_accessible_update_state (GTK_ACCESSIBLE (chip), GTK_ACCESSIBLE_STATE_SELECTED, selected, -1);
}
