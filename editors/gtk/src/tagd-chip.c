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
  g_clear_pointer (&chip->button, gtk_widget_unparent);
  G_OBJECT_CLASS (tagd_chip_parent_class)->dispose (object);
}

static void
tagd_chip_finalize (GObject *object)
{
  g_free (TAGD_CHIP (object)->tag);
  G_OBJECT_CLASS (tagd_chip_parent_class)->finalize (object);
}

static void
tagd_chip_class_init (TagdChipClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
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

static gboolean
unflash_cb (gpointer data)
{
  TagdChip *chip = data;
  chip->flash_source = 0;
  gtk_widget_remove_css_class (GTK_WIDGET (chip), "flash");
  return G_SOURCE_REMOVE;
}

/* A duplicate was typed: the equal chip flashes for 0.9 s. */
void
_tagd_chip_flash (TagdChip *chip)
{
  g_clear_handle_id (&chip->flash_source, g_source_remove);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "flash");
  chip->flash_source = g_timeout_add (900, unflash_cb, chip);
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
