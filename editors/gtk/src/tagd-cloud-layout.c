/* tagd-cloud-layout.c: where the cloud's tags go. Their natural sizes go to cloud/layout; the
 * buttons are placed at the frames that come back (mirrored right to left), each covering its
 * tag's whole shape, inside a margin of half the merge distance on every side.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "tagd-cloud-private.h"

/* What a cloud/layout reply is checked against. */
typedef struct {
  guint      serial;
  guint      n_tags;
  gboolean   animation;
} LayoutReply;

static void
on_layout_reply (gpointer owner, GVariant *result, const GError *error, gboolean current, gpointer data)
{
  LayoutReply *r = data;
  TagdCloud *self = TAGD_CLOUD (owner);
  g_autoptr (GVariant) frames = NULL;
  g_autoptr (GVariant) size = NULL;
  g_autoptr (GVariant) groups = NULL;

  if (r->animation)
    self->in_flight = FALSE;
  if (error != NULL)
    {
      _tagd_report_error ("cloud/layout", error);
      g_free (r);
      return;
    }
  frames = _tagd_variant_lookup (result, "frames");
  size = _tagd_variant_lookup (result, "size");
  groups = _tagd_variant_lookup (result, "groups");
  if (current && r->n_tags == self->buttons->len &&
      r->serial > self->layout_applied && frames != NULL && g_variant_n_children (frames) == r->n_tags)
    {
      GVariantIter iter;
      GVariant *item;
      guint g = 0;

      g_array_set_size (self->frames, r->n_tags);
      for (guint i = 0; i < r->n_tags; i++)
        {
          g_autoptr (GVariant) it = g_variant_get_child_value (frames, i);
          g_autoptr (GVariant) f = g_variant_is_of_type (it, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (it) : g_variant_ref (it);
          graphene_rect_init (&g_array_index (self->frames, graphene_rect_t, i),
                              _tagd_variant_number (f, "x", 0), _tagd_variant_number (f, "y", 0),
                              _tagd_variant_number (f, "width", 0), _tagd_variant_number (f, "height", 0));
        }
      g_free (self->group_of);
      self->group_of = g_new0 (int, MAX (r->n_tags, 1));
      for (guint i = 0; i < r->n_tags; i++)
        self->group_of[i] = (int) i;
      if (groups != NULL)
        {
          g_variant_iter_init (&iter, groups);
          while ((item = g_variant_iter_next_value (&iter)))
            {
              g_autoptr (GVariant) group = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
              GVariantIter members;
              GVariant *m;
              g_variant_iter_init (&members, group);
              while ((m = g_variant_iter_next_value (&members)))
                {
                  g_autoptr (GVariant) mv = g_variant_is_of_type (m, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (m) : g_variant_ref (m);
                  gint64 idx = g_variant_is_of_type (mv, G_VARIANT_TYPE_INT64) ? g_variant_get_int64 (mv) : -1;
                  if (idx >= 0 && (guint64) idx < r->n_tags)
                    self->group_of[idx] = (int) g;
                  g_variant_unref (m);
                }
              g++;
              g_variant_unref (item);
            }
        }
      self->n_groups = g;
      self->layout_height = _tagd_variant_number (size, "height", 0);
      self->layout_applied = r->serial;
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
  g_free (r);
}

void
_tagd_cloud_request_layout (TagdCloud *self, gboolean transition, double progress)
{
  GVariantBuilder b, sizes;
  LayoutReply *r;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double avail = width - 2 * _tagd_cloud_margin (self);

  if (!_tagd_session_is_live (self->session) || width <= 0)
    return;
  self->layout_width = width;
  g_variant_builder_init (&sizes, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; i < self->buttons->len; i++)
    {
      int w = 0, h = 0;
      gtk_widget_measure (self->buttons->pdata[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
      gtk_widget_measure (self->buttons->pdata[i], GTK_ORIENTATION_VERTICAL, w, NULL, &h, NULL, NULL);
      g_variant_builder_add_parsed (&sizes, "{'width': <%d>, 'height': <%d>}", (double) w, (double) h);
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "width", g_variant_new_double (MAX (avail, 0)));
  g_variant_builder_add (&b, "{sv}", "sizes", g_variant_builder_end (&sizes));
  /* Mid-animation, the flow at the spacing reached so far: a valid layout at every frame, so
   * titles never overlap (tagd's `transition` moves each tag on a straight line between its
   * two frames, and tags that change lines then cross others). A tag that stops fitting on
   * its line moves to the next one in a step, as in a resized flow box. */
  g_variant_builder_add (&b, "{sv}", "spacing",
                         g_variant_new_double (transition ? self->anim_from + (self->spacing - self->anim_from) * progress
                                                          : self->spacing));
  g_variant_builder_add (&b, "{sv}", "mergeDistance", g_variant_new_double (self->merge_distance));
  r = g_new0 (LayoutReply, 1);
  r->serial = ++self->layout_serial;
  r->n_tags = self->buttons->len;
  r->animation = transition;
  if (transition)
    self->in_flight = TRUE;
  _tagd_session_call (self->session, "cloud/layout", g_variant_builder_end (&b), self, on_layout_reply, r);
}

/* The shapes reach half the merge distance beyond the frames: the cloud keeps that margin
 * inside its own allocation, so nothing is drawn outside it. */
double
_tagd_cloud_margin (TagdCloud *self)
{
  return self->merge_distance / 2.0;
}

/* Frame @i of the applied layout, mirrored in right-to-left layouts (tagd flows left to right). */
graphene_rect_t
_tagd_cloud_frame_at (TagdCloud *self, guint i)
{
  graphene_rect_t r = g_array_index (self->frames, graphene_rect_t, i);
  double m = _tagd_cloud_margin (self);
  if (gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL)
    r.origin.x = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * m - r.origin.x - r.size.width;
  r.origin.x += m;
  r.origin.y += m;
  return r;
}

/* A tag's shape: its frame grown by half the merge distance, so neighbours closer than the
 * merge distance overlap and melt; the button takes the whole shape, so a click anywhere on
 * it toggles the tag. */
graphene_rect_t
_tagd_cloud_shape_at (TagdCloud *self, guint i)
{
  graphene_rect_t r = _tagd_cloud_frame_at (self, i);
  double m = _tagd_cloud_margin (self);
  graphene_rect_inset (&r, -m, -m);
  return r;
}

void
_tagd_cloud_measure (GtkWidget      *widget,
                    GtkOrientation  orientation,
                    int             for_size,
                    int            *minimum,
                    int            *natural,
                    int            *minimum_baseline,
                    int            *natural_baseline)
{
  TagdCloud *self = TAGD_CLOUD (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      int widest = 0, total = 0;
      for (guint i = 0; i < self->buttons->len; i++)
        {
          int w = 0;
          gtk_widget_measure (self->buttons->pdata[i], GTK_ORIENTATION_HORIZONTAL, -1, NULL, &w, NULL, NULL);
          widest = MAX (widest, w);
          total += w + (int) self->spacing;
        }
      *minimum = widest + (int) ceil (2 * _tagd_cloud_margin (self));
      *natural = MAX (widest, total) + (int) ceil (2 * _tagd_cloud_margin (self));
    }
  else
    *minimum = *natural = (int) ceil (MAX (self->layout_height, 0) + 2 * _tagd_cloud_margin (self));
}

void
_tagd_cloud_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  gboolean have = self->frames->len == self->buttons->len;

  if (self->layout_width != width && self->tick_id == 0)
    _tagd_cloud_request_layout (self, FALSE, 1.0);
  for (guint i = 0; i < self->buttons->len; i++)
    {
      GtkWidget *b = self->buttons->pdata[i];
      GtkAllocation a;
      graphene_rect_t frame, *f = &frame;

      if (!have)
        {
          gtk_widget_set_child_visible (b, FALSE);
          continue;
        }
      frame = _tagd_cloud_shape_at (self, i);
      a.x = (int) round (f->origin.x);
      a.y = (int) round (f->origin.y);
      a.width = (int) round (f->size.width);
      a.height = (int) round (f->size.height);
      gtk_widget_set_child_visible (b, TRUE);
      gtk_widget_size_allocate (b, &a, -1);
    }
}

