/* tagd-entry-layout.c: the entry's size and layout. The chips are measured, tagd places them
 * (field/layout), and the frames that come back are allocated (mirrored right to left).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tagd-entry-private.h"
#include "tagd-enums.h"
#include "tagd-style.h"

/* ---- layout */

static double
text_height (TagdEntry *self)
{
  int nat = 0;
  gtk_widget_measure (self->text_box, GTK_ORIENTATION_VERTICAL, -1, NULL, &nat, NULL, NULL);
  return nat;
}

static double
text_min_width (TagdEntry *self)
{
  int min = 0;
  gtk_widget_measure (self->text_box, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return MAX (min, 48);
}

static double
line_height (TagdEntry *self)
{
  double h = text_height (self);
  for (guint i = 0; i < self->chips->len; i++)
    {
      int nat = 0;
      gtk_widget_measure (self->chips->pdata[i], GTK_ORIENTATION_VERTICAL, -1, NULL, &nat, NULL, NULL);
      h = MAX (h, nat);
    }
  return h;
}

static int
message_height (TagdEntry *self, int width)
{
  int nat = 0;
  if (!gtk_widget_get_visible (self->message))
    return 0;
  gtk_widget_measure (self->message, GTK_ORIENTATION_VERTICAL, width, NULL, &nat, NULL, NULL);
  return nat;
}

/* What a field/layout reply is checked against. */
typedef struct {
  guint      serial;
  guint      rebuilds;      /* chip list generation when the request was sent */
  GPtrArray *chips;
} LayoutReply;

static void
layout_reply_free (LayoutReply *r)
{
  g_ptr_array_unref (r->chips);
  g_free (r);
}

static void
on_layout_reply (gpointer owner, GVariant *result, const GError *error, gboolean current, gpointer data)
{
  LayoutReply *r = data;
  TagdEntry *self = TAGD_ENTRY (owner);
  g_autoptr (GVariant) frames = NULL;
  g_autoptr (GVariant) size = NULL;
  gboolean same_chips;

  if (error != NULL)
    {
      /* tagd's tags moved on while this request was in flight: the field/didUpdate (or
       * field/open reply) saying so came before this reply, since tagd answers in order, and
       * rebuilt the chips, which sent a new request; or the session was re-opened under a new
       * id. Not an error of the widget's. */
      if (r->rebuilds != self->rebuilds || !current)
        g_debug ("tagd: stale field/layout: %s", error->message);
      else
        _tagd_report_error ("field/layout", error);
      layout_reply_free (r);
      return;
    }
  same_chips = current && r->chips->len == self->chips->len;
  for (guint i = 0; same_chips && i < r->chips->len; i++)
    same_chips = r->chips->pdata[i] == self->chips->pdata[i];
  frames = _tagd_variant_lookup (result, "frames");
  size = _tagd_variant_lookup (result, "size");
  /* A reply for chips that have changed since is useless: a newer request is on its way. */
  if (same_chips && r->serial > self->layout_applied && frames != NULL &&
      g_variant_n_children (frames) == r->chips->len + 1)
    {
      for (guint i = 0; i <= r->chips->len; i++)
        {
          g_autoptr (GVariant) item = g_variant_get_child_value (frames, i);
          g_autoptr (GVariant) f = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
          graphene_rect_t rect;
          graphene_rect_init (&rect, _tagd_variant_number (f, "x", 0), _tagd_variant_number (f, "y", 0),
                              _tagd_variant_number (f, "width", 0), _tagd_variant_number (f, "height", 0));
          if (i < r->chips->len)
            {
              TagdChip *chip = r->chips->pdata[i];
              chip->frame = rect;
              chip->has_frame = TRUE;
            }
          else
            {
              self->text_frame = rect;
              self->has_text_frame = TRUE;
            }
        }
      self->layout_height = _tagd_variant_number (size, "height", -1);
      self->layout_applied = r->serial;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  layout_reply_free (r);
}

void
_tagd_entry_request_layout (TagdEntry *self)
{
  GVariantBuilder b, sizes;
  LayoutReply *r;
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  /* Before field/open is sent, tagd would not know the id: the open asks again (after_open). */
  if (!_tagd_session_is_live (self->session) || width <= 0)
    return;
  self->layout_width = width;
  g_variant_builder_init (&sizes, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < self->chips->len; i++)
    {
      int w = 0, h = 0;
      gtk_widget_measure (self->chips->pdata[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
      gtk_widget_measure (self->chips->pdata[i], GTK_ORIENTATION_VERTICAL, w, NULL, &h, NULL, NULL);
      g_variant_builder_add_parsed (&sizes, "{'width': <%d>, 'height': <%d>}", (double) w, (double) h);
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "width", g_variant_new_double (width));
  g_variant_builder_add (&b, "{sv}", "chipSizes", g_variant_builder_end (&sizes));
  g_variant_builder_add (&b, "{sv}", "fieldHeight", g_variant_new_double (line_height (self)));
  g_variant_builder_add (&b, "{sv}", "spacing", g_variant_new_double (CHIP_SPACING));
  g_variant_builder_add (&b, "{sv}", "fieldMinWidth", g_variant_new_double (text_min_width (self)));
  r = g_new0 (LayoutReply, 1);
  r->rebuilds = self->rebuilds;
  r->serial = ++self->layout_serial;
  r->chips = g_ptr_array_new_full (self->chips->len, g_object_unref);
  for (guint i = 0; i < self->chips->len; i++)
    g_ptr_array_add (r->chips, g_object_ref (self->chips->pdata[i]));
  _tagd_session_call (self->session, "field/layout", g_variant_builder_end (&b), self, on_layout_reply, r);
}

void
_tagd_entry_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  TagdEntry *self = TAGD_ENTRY (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int text_nat = 0;
      double nat = 0;
      gtk_widget_measure (self->text_box, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &text_nat, NULL, NULL);
      for (guint i = 0; i < self->chips->len; i++)
        {
          int w = 0;
          gtk_widget_measure (self->chips->pdata[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
          nat += w + CHIP_SPACING;
        }
      *minimum = (int) ceil (text_min_width (self));
      *natural = MAX (*minimum, (int) ceil (nat + text_nat));
    }
  else
    {
      double h = line_height (self);
      if (self->layout_height > h)
        h = self->layout_height;
      *minimum = *natural = (int) ceil (h) + message_height (self, for_size);
    }
}

void
_tagd_entry_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TagdEntry *self = TAGD_ENTRY (widget);
  GtkAllocation a;
  int text_min = (int) text_min_width (self);
  int message = message_height (self, width);
  int field_height = height - message;
  /* tagd's frames flow left to right; right-to-left locales get them mirrored. */
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;

  if (self->layout_width != width)
    _tagd_entry_request_layout (self);

  for (guint i = 0; i < self->chips->len; i++)
    {
      TagdChip *chip = self->chips->pdata[i];
      int min_w = 0;

      if (!chip->has_frame || chip->removing)
        {
          gtk_widget_set_child_visible (GTK_WIDGET (chip), FALSE);
          continue;
        }
      gtk_widget_measure (GTK_WIDGET (chip), GTK_ORIENTATION_HORIZONTAL, -1, &min_w, NULL, NULL, NULL);
      a.x = (int) round (chip->frame.origin.x);
      a.y = (int) round (chip->frame.origin.y);
      a.width = MAX ((int) round (chip->frame.size.width), min_w);
      a.height = (int) round (chip->frame.size.height);
      if (rtl)
        a.x = width - a.x - a.width;
      gtk_widget_set_child_visible (GTK_WIDGET (chip), TRUE);
      gtk_widget_size_allocate (GTK_WIDGET (chip), &a, -1);
    }

  if (self->has_text_frame)
    {
      a.x = (int) round (self->text_frame.origin.x);
      a.y = (int) round (self->text_frame.origin.y);
      a.width = MIN ((int) round (self->text_frame.size.width), width - a.x);
      a.height = (int) round (self->text_frame.size.height);
      if (a.width < text_min)
        a.width = MAX (text_min, width - a.x);
    }
  else
    {
      a.x = 0;
      a.y = 0;
      a.width = MAX (width, text_min);
      a.height = field_height;
    }
  a.height = MAX (a.height, (int) text_height (self));
  if (rtl)
    a.x = width - a.x - a.width;
  gtk_widget_size_allocate (self->text_box, &a, -1);

  if (message > 0)
    {
      GtkAllocation m = { 0, field_height, width, message };
      gtk_widget_size_allocate (self->message, &m, -1);
    }
  if (gtk_widget_get_visible (self->popover))
    {
      GdkRectangle at = { a.x, a.y, MIN (a.width, 1), a.height };
      gtk_popover_set_pointing_to (GTK_POPOVER (self->popover), &at);
      gtk_popover_present (GTK_POPOVER (self->popover));
    }
}

GtkSizeRequestMode
_tagd_entry_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}
