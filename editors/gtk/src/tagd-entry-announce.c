/* tagd-entry-announce.c: what the entry says: tagd's announcement for a screen reader, a
 * refused candidate's sentence below the text, a duplicate's chip flashing, tag-dropped.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-entry-private.h"
#include "tagd-enums.h"

#if GTK_CHECK_VERSION (4, 14, 0)
/* GTK 4.14 has gtk_accessible_announce(). Debian 12, the floor, has GTK 4.8: there this branch
 * is only compiled against a stand-in declaration (tests/gtk-4.14/announce.h), never run. */
static void
speak (TagdEntry *self, const char *sentence)
{
  gtk_accessible_announce (GTK_ACCESSIBLE (self), sentence, GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
}
#else
static gboolean
clear_description_cb (gpointer data)
{
  TagdEntry *self = data;
  self->clear_description = 0;
  if (self->described != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->described),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
  g_clear_weak_pointer (&self->described);
  return G_SOURCE_REMOVE;
}

/* What a screen reader is reading: the Remove button of the selected chip, else the text. */
static GtkWidget *
announce_target (TagdEntry *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  for (guint i = 0; focus != NULL && i < self->chips->len; i++)
    if (focus == TAGD_CHIP (self->chips->pdata[i])->button)
      return focus;
  return self->text_box;
}

/* GTK 4.8 has no gtk_accessible_announce(): Orca 43 speaks a change of the accessible
 * description of its locus of focus. The description is cleared on the next idle, so the same
 * sentence twice is spoken twice and is not read again when focus comes back. */
static void
speak (TagdEntry *self, const char *sentence)
{
  GtkWidget *target = announce_target (self);

  if (self->described != NULL && self->described != target)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->described),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
  g_set_weak_pointer (&self->described, target);
  gtk_accessible_update_property (GTK_ACCESSIBLE (target),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence, -1);
  g_clear_handle_id (&self->clear_description, g_source_remove);
  self->clear_description = g_idle_add (clear_description_cb, self);
}
#endif

/* A sentence of the entry's own (not tagd's announcement), for a screen reader only. */
void
_tagd_entry_speak (TagdEntry *self, const char *sentence)
{
  speak (self, sentence);
}

static void
set_announcement (TagdEntry *self, const char *sentence)
{
  if (sentence == NULL || sentence[0] == '\0')
    return;
  g_free (self->announcement);
  self->announcement = g_strdup (sentence);
  self->announcements++;
  speak (self, sentence);
  g_object_notify_by_pspec (G_OBJECT (self), _tagd_entry_properties[PROP_ANNOUNCEMENT]);
}

/* A candidate was refused: the text turns to its error style and the sentence shows below the
 * entry (and as the text's tooltip) until the text changes. */
static void
show_refusal (TagdEntry *self, const char *sentence)
{
  gtk_widget_add_css_class (self->text_box, "error");
  gtk_label_set_text (GTK_LABEL (self->message), sentence);
  gtk_widget_set_tooltip_text (self->text_box, sentence);
  if (!gtk_widget_get_visible (self->message))
    {
      gtk_widget_set_visible (self->message, TRUE);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

void
_tagd_entry_clear_refusal (TagdEntry *self)
{
  if (!gtk_widget_get_visible (self->message))
    return;
  gtk_widget_remove_css_class (self->text_box, "error");
  gtk_widget_set_tooltip_text (self->text_box, NULL);
  gtk_widget_set_visible (self->message, FALSE);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static TagdDropReason
drop_reason (const char *reason)
{
  static const struct { const char *name; TagdDropReason value; } reasons[] = {
    { "empty", TAGD_DROP_REASON_EMPTY }, { "duplicate", TAGD_DROP_REASON_DUPLICATE },
    { "tooLong", TAGD_DROP_REASON_TOO_LONG }, { "tooMany", TAGD_DROP_REASON_TOO_MANY },
    { "pattern", TAGD_DROP_REASON_PATTERN }, { "notAllowed", TAGD_DROP_REASON_NOT_ALLOWED },
    { "denied", TAGD_DROP_REASON_DENIED },
  };
  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (g_str_equal (reason, reasons[i].name))
      return reasons[i].value;
  return TAGD_DROP_REASON_OTHER;
}

/* The outcome's sentence first (so tag-dropped handlers read the new announcement), then the
 * flashes and the signals. */
void
_tagd_entry_apply_outcome (TagdEntry *self, GVariant *state)
{
  g_autoptr (GVariant) outcome = _tagd_variant_lookup (state, "outcome");
  g_autoptr (GVariant) dropped = _tagd_variant_lookup (outcome, "dropped");
  const char *sentence = NULL;
  gboolean refused = FALSE;
  GVariantIter iter;
  GVariant *item;

  g_variant_lookup (state, "announcement", "&s", &sentence);
  if (sentence != NULL)
    set_announcement (self, sentence);
  if (dropped == NULL)
    return;
  g_variant_iter_init (&iter, dropped);
  while ((item = g_variant_iter_next_value (&iter)))
    {
      g_autoptr (GVariant) d = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
      const char *text = "", *reason = "";
      int index = (int) _tagd_variant_number (d, "duplicateOf", -1);
      TagdDropReason why;

      g_variant_lookup (d, "text", "&s", &text);
      g_variant_lookup (d, "reason", "&s", &reason);
      why = drop_reason (reason);
      if (why == TAGD_DROP_REASON_DUPLICATE && index >= 0 && (guint) index < self->chips->len)
        _tagd_chip_flash (self->chips->pdata[index]);
      else if (why != TAGD_DROP_REASON_EMPTY && why != TAGD_DROP_REASON_DUPLICATE)
        refused = TRUE;
      g_signal_emit (self, _tagd_entry_signals[SIGNAL_TAG_DROPPED], 0, text, why, index);
      g_variant_unref (item);
    }
  if (refused && sentence != NULL)
    show_refusal (self, sentence);
}

/* tagd's `selected`, shown unless a field/select of the entry's own is still on its way. */
