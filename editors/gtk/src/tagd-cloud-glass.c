/* tagd-cloud-glass.c: the glass. Each merge group from cloud/layout is drawn behind its tags
 * as one shape: every member's rounded rectangle, grown by half the merge distance, filled in
 * its tint inside one opacity group (the seed's unselected tint), plus a gradient bridge
 * between neighbours on one line, so tags closer than the merge distance melt together and
 * the overlaps do not show. A selected tag gets its tint once more on top, with a light edge.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include <math.h>

#include "tagd-cloud-private.h"

static void
tint_color (TagdCloud *self, guint i, GdkRGBA *rgba)
{
  if (self->tints[i][0] == '\0' || !gdk_rgba_parse (rgba, self->tints[i]))
    gdk_rgba_parse (rgba, "#3584e4");
}

void
_tagd_cloud_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  double grow = self->merge_distance / 2.0;

  if (self->frames->len == self->buttons->len && self->group_of != NULL)
    {
      /* One opacity group per merge group: the members' grown rounded rectangles overlap
       * where tags are closer than the merge distance, and fill as one shape. */
      for (guint g = 0; g < self->n_groups; g++)
        {
          int prev = -1;
          gtk_snapshot_push_opacity (snapshot, UNSELECTED_OPACITY);
          for (guint i = 0; i < self->buttons->len; i++)
            {
              graphene_rect_t r = _tagd_cloud_shape_at (self, i);
              GskRoundedRect rr;
              GdkRGBA c;
              if (self->group_of[i] != (int) g)
                continue;
              gsk_rounded_rect_init_from_rect (&rr, &r, r.size.height / 2);
              tint_color (self, i, &c);
              gtk_snapshot_push_rounded_clip (snapshot, &rr);
              gtk_snapshot_append_color (snapshot, &c, &r);
              gtk_snapshot_pop (snapshot);
              /* Between two neighbours of one group on one line, blend one tint into the
               * other across the bridge, so the shape has no seam. */
              if (prev >= 0)
                {
                  /* l and rt: the two tags' own frames, left one first (either order in RTL). */
                  graphene_rect_t p = _tagd_cloud_frame_at (self, prev), q = _tagd_cloud_frame_at (self, i), bridge;
                  gboolean prev_left = p.origin.x <= q.origin.x;
                  graphene_rect_t l = prev_left ? p : q, rt = prev_left ? q : p;
                  float x0 = l.origin.x + l.size.width - l.size.height / 2;
                  float x1 = rt.origin.x + rt.size.height / 2;
                  float top = MIN (l.origin.y, rt.origin.y) - grow;
                  float bottom = MAX (l.origin.y + l.size.height, rt.origin.y + rt.size.height) + grow;
                  if (x1 > x0 && fabsf (l.origin.y - rt.origin.y) < 1)
                    {
                      GskColorStop stops[2];
                      GdkRGBA pc;
                      tint_color (self, prev, &pc);
                      stops[0].color = prev_left ? pc : c;
                      stops[0].offset = 0;
                      stops[1].color = prev_left ? c : pc;
                      stops[1].offset = 1;
                      graphene_rect_init (&bridge, x0, top, x1 - x0, bottom - top);
                      gtk_snapshot_append_linear_gradient (snapshot, &bridge,
                                                           &GRAPHENE_POINT_INIT (x0, top),
                                                           &GRAPHENE_POINT_INIT (x1, top), stops, 2);
                    }
                }
              prev = (int) i;
            }
          gtk_snapshot_pop (snapshot);
        }
      /* Selected tags: their tint again, so that over the group's layer it shows at
       * SELECTED_OPACITY, with a light edge (the glass). */
      for (guint i = 0; i < self->buttons->len; i++)
        {
          graphene_rect_t r = _tagd_cloud_shape_at (self, i);
          GskRoundedRect rr;
          GdkRGBA c, edge = { 1, 1, 1, 0.55 };
          float widths[4] = { 1, 1, 1, 1 };
          GdkRGBA edges[4];

          if (!_tagd_cloud_tag_get_active (self->buttons->pdata[i]))
            continue;
          tint_color (self, i, &c);
          c.alpha = 1 - (1 - SELECTED_OPACITY) / (1 - UNSELECTED_OPACITY);
          gsk_rounded_rect_init_from_rect (&rr, &r, r.size.height / 2);
          gtk_snapshot_push_rounded_clip (snapshot, &rr);
          gtk_snapshot_append_color (snapshot, &c, &r);
          gtk_snapshot_pop (snapshot);
          for (int k = 0; k < 4; k++)
            edges[k] = edge;
          gtk_snapshot_append_border (snapshot, &rr, widths, edges);
        }
    }
  for (guint i = 0; i < self->buttons->len; i++)
    gtk_widget_snapshot_child (widget, self->buttons->pdata[i], snapshot);
}

