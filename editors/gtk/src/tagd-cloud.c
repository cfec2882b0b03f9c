/* tagd-cloud.c: a selectable tag cloud; tagd keeps the selection and places the tags.
 *
 * Each tag is a GtkToggleButton. Their natural sizes go to cloud/layout; the buttons are placed
 * at the frames that come back, and each merge group tagd returns is drawn behind its tags as
 * one shape: every member's rounded rectangle, grown by half the merge distance, filled in its
 * tint inside one opacity group, so tags closer than the merge distance melt together and the
 * overlaps do not show. A spacing change animates for 0.7 s on the frame clock, sampling
 * cloud/layout with a `transition` at each tick (one request in flight at a time), unless
 * gtk-enable-animations is off, in which case the cloud jumps to the new layout.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-cloud.h"
#include "tagd-session.h"
#include "tagd-style.h"

#define ANIMATION_USEC (700 * 1000)
/* The seed's tints: a selected tag's shape in its tint at 0.85, an unselected one at 0.3. */
#define SELECTED_OPACITY 0.85
#define UNSELECTED_OPACITY 0.3

struct _TagdCloud {
  GtkWidget        parent_instance;

  GPtrArray       *buttons;          /* GtkToggleButton*, in tag order */
  char           **titles;
  char           **tints;            /* same length as titles; "" for no tint */
  char           **selection;
  double           spacing;
  double           merge_distance;
  gboolean         syncing;          /* setting buttons from tagd's state */
  int              current;          /* the tag Tab comes back to, or -1 */

  TagdSession     *session;          /* the cloud in tagd */
  gint64           state_version;

  /* layout */
  double           layout_width;
  guint            layout_serial;
  guint            layout_applied;
  GArray          *frames;           /* graphene_rect_t per tag of the applied layout */
  int             *group_of;         /* group index per tag of the applied layout */
  guint            n_groups;
  double           layout_height;

  /* animation */
  guint            tick_id;
  gint64           anim_start;
  double           anim_from;
  gboolean         anim_done;        /* the final frame was requested */
  gboolean         in_flight;
};

enum {
  PROP_0,
  PROP_TITLES,
  PROP_SELECTION,
  PROP_SPACING,
  PROP_MERGE_DISTANCE,
  PROP_ANIMATING,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (TagdCloud, tagd_cloud, GTK_TYPE_WIDGET)

static double margin (TagdCloud *self);
static void request_layout (TagdCloud *self, gboolean transition, double progress);

/* GTK 4.8 shows a toggle button as a push button whose change a screen reader does not
 * speak; as a check box with its CHECKED state kept in step it says "checked"/"not checked". */
static void
sync_checked (GtkToggleButton *button)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_STATE_CHECKED,
                               gtk_toggle_button_get_active (button) ? GTK_ACCESSIBLE_TRISTATE_TRUE
                                                                     : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

static void
set_selection_internal (TagdCloud *self, char **selection /* transfer full */)
{
  self->syncing = TRUE;
  for (guint i = 0; i < self->buttons->len; i++)
    {
      gboolean on = g_strv_contains ((const char * const *) selection, self->titles[i]);
      gtk_toggle_button_set_active (self->buttons->pdata[i], on);
    }
  self->syncing = FALSE;
  if (_tagd_strv_equal (self->selection, selection))
    {
      g_strfreev (selection);
      return;
    }
  g_strfreev (self->selection);
  self->selection = selection;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
}

/* Takes a CloudState if it is newer than what the cloud shows. */
static void
apply_state (TagdCloud *self, GVariant *state)
{
  gint64 version = (gint64) _tagd_variant_number (state, "version", 0);
  g_autoptr (GVariant) selection = _tagd_variant_lookup (state, "selection");

  if (version > self->state_version)
    {
      self->state_version = version;
      set_selection_internal (self, _tagd_variant_strv (selection));
    }
}

static void
on_toggled (GtkToggleButton *button, TagdCloud *self)
{
  const char *title = g_object_get_data (G_OBJECT (button), "tagd-title");

  sync_checked (button);
  if (self->syncing)
    return;
  {
    guint index;
    if (g_ptr_array_find (self->buttons, button, &index))
      self->current = (int) index;
  }
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _tagd_session_request (self->session, "cloud/toggle", g_variant_new_parsed ("{'title': <%s>}", title), 0, NULL);
}

static void
rebuild_buttons (TagdCloud *self)
{
  guint n = g_strv_length (self->titles);

  for (guint i = 0; i < self->buttons->len; i++)
    gtk_widget_unparent (self->buttons->pdata[i]);
  g_ptr_array_set_size (self->buttons, 0);
  for (guint i = 0; i < n; i++)
    {
      GtkWidget *b = g_object_new (GTK_TYPE_TOGGLE_BUTTON, "label", self->titles[i],
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_CHECKBOX, NULL);
      gtk_widget_add_css_class (b, "flat");
      gtk_widget_add_css_class (b, "tagd-cloud-tag");
      g_object_set_data_full (G_OBJECT (b), "tagd-title", g_strdup (self->titles[i]), g_free);
      gtk_widget_set_child_visible (b, FALSE);
      gtk_widget_set_parent (b, GTK_WIDGET (self));
      g_ptr_array_add (self->buttons, g_object_ref (b));
      self->syncing = TRUE;
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (b),
                                    self->selection && g_strv_contains ((const char * const *) self->selection, self->titles[i]));
      self->syncing = FALSE;
      sync_checked (GTK_TOGGLE_BUTTON (b));
      g_signal_connect (b, "toggled", G_CALLBACK (on_toggled), self);
    }
  self->current = -1;
  g_array_set_size (self->frames, 0);
  g_clear_pointer (&self->group_of, g_free);
  self->n_groups = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/* ---- session */

/* cloud/open: the tags and the selection. Held toggles go out after it, so the widget's
 * selection (tagd's last answer) is the state they were made in. */
static GVariant *
session_open_params (gpointer owner, const TagdRequest *first)
{
  TagdCloud *self = TAGD_CLOUD (owner);
  GVariantBuilder b, tags;
  const char *empty[] = { NULL };

  self->state_version = 0;
  g_variant_builder_init (&tags, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; self->titles[i] != NULL; i++)
    {
      GVariantBuilder t;
      g_variant_builder_init (&t, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&t, "{sv}", "title", g_variant_new_string (self->titles[i]));
      if (self->tints[i][0] != '\0')
        g_variant_builder_add (&t, "{sv}", "tint", g_variant_new_string (self->tints[i]));
      g_variant_builder_add_value (&tags, g_variant_builder_end (&t));
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "tags", g_variant_builder_end (&tags));
  g_variant_builder_add (&b, "{sv}", "selection",
                         g_variant_new_strv (self->selection ? (const char * const *) self->selection : empty, -1));
  return g_variant_builder_end (&b);
}

static void
session_open_reply (gpointer owner, GVariant *result)
{
  apply_state (TAGD_CLOUD (owner), result);
}

static void
session_after_open (gpointer owner)
{
  TagdCloud *self = TAGD_CLOUD (owner);
  self->layout_width = -1;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
session_answered (gpointer owner, const TagdRequest *request, GVariant *result, const GError *error, gboolean current)
{
  if (error != NULL)
    _tagd_report_error (request->method, error);
  else if (current)
    apply_state (TAGD_CLOUD (owner), result);
}

static const TagdSessionClass session_class = {
  .kind = "cloud",
  .prefix = "cloud",
  .open_params = session_open_params,
  .open_reply = session_open_reply,
  .after_open = session_after_open,
  .answered = session_answered,
};

/* ---- layout */

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

static void
request_layout (TagdCloud *self, gboolean transition, double progress)
{
  GVariantBuilder b, sizes;
  LayoutReply *r;
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double avail = width - 2 * margin (self);

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
  if (transition)
    g_variant_builder_add (&b, "{sv}", "transition",
                           g_variant_new_parsed ("{'from': <%d>, 'to': <%d>, 'progress': <%d>}",
                                                 self->anim_from, self->spacing, progress));
  else
    g_variant_builder_add (&b, "{sv}", "spacing", g_variant_new_double (self->spacing));
  g_variant_builder_add (&b, "{sv}", "mergeDistance", g_variant_new_double (self->merge_distance));
  r = g_new0 (LayoutReply, 1);
  r->serial = ++self->layout_serial;
  r->n_tags = self->buttons->len;
  r->animation = transition;
  if (transition)
    self->in_flight = TRUE;
  _tagd_session_call (self->session, "cloud/layout", g_variant_builder_end (&b), on_layout_reply, r);
}

static gboolean
animation_tick (GtkWidget *widget, GdkFrameClock *clock, gpointer data)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  double t, eased;

  if (self->in_flight)
    return G_SOURCE_CONTINUE;
  if (self->anim_done)
    {
      self->tick_id = 0;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATING]);
      return G_SOURCE_REMOVE;
    }
  t = (gdk_frame_clock_get_frame_time (clock) - self->anim_start) / (double) ANIMATION_USEC;
  if (t >= 1.0)
    {
      t = 1.0;
      self->anim_done = TRUE;
    }
  eased = 1.0 - pow (1.0 - CLAMP (t, 0.0, 1.0), 3);  /* ease-out cubic */
  request_layout (self, TRUE, eased);
  return G_SOURCE_CONTINUE;
}

static gboolean
animations_enabled (TagdCloud *self)
{
  gboolean enabled = TRUE;
  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-enable-animations", &enabled, NULL);
  return enabled;
}

/* Frame @i of the applied layout, mirrored in right-to-left layouts (tagd flows left to right). */
/* The shapes reach half the merge distance beyond the frames: the cloud keeps that margin
 * inside its own allocation, so nothing is drawn outside it. */
static double
margin (TagdCloud *self)
{
  return self->merge_distance / 2.0;
}

static graphene_rect_t
frame_at (TagdCloud *self, guint i)
{
  graphene_rect_t r = g_array_index (self->frames, graphene_rect_t, i);
  double m = margin (self);
  if (gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL)
    r.origin.x = gtk_widget_get_width (GTK_WIDGET (self)) - 2 * m - r.origin.x - r.size.width;
  r.origin.x += m;
  r.origin.y += m;
  return r;
}

/* A tag's shape: its frame grown by half the merge distance, so neighbours closer than the
 * merge distance overlap and melt; the button takes the whole shape, so a click anywhere on
 * it toggles the tag. */
static graphene_rect_t
shape_at (TagdCloud *self, guint i)
{
  graphene_rect_t r = frame_at (self, i);
  double m = margin (self);
  graphene_rect_inset (&r, -m, -m);
  return r;
}

static void
tagd_cloud_measure (GtkWidget      *widget,
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
      *minimum = widest + (int) ceil (2 * margin (self));
      *natural = MAX (widest, total) + (int) ceil (2 * margin (self));
    }
  else
    *minimum = *natural = (int) ceil (MAX (self->layout_height, 0) + 2 * margin (self));
}

static void
tagd_cloud_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  gboolean have = self->frames->len == self->buttons->len;

  if (self->layout_width != width && self->tick_id == 0)
    request_layout (self, FALSE, 1.0);
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
      frame = shape_at (self, i);
      a.x = (int) round (f->origin.x);
      a.y = (int) round (f->origin.y);
      a.width = (int) round (f->size.width);
      a.height = (int) round (f->size.height);
      gtk_widget_set_child_visible (b, TRUE);
      gtk_widget_size_allocate (b, &a, -1);
    }
}

static void
tint_color (TagdCloud *self, guint i, GdkRGBA *rgba)
{
  if (self->tints[i][0] == '\0' || !gdk_rgba_parse (rgba, self->tints[i]))
    gdk_rgba_parse (rgba, "#3584e4");
}

static void
tagd_cloud_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
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
              graphene_rect_t r = shape_at (self, i);
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
                  graphene_rect_t p = frame_at (self, prev), q = frame_at (self, i), bridge;
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
          graphene_rect_t r = shape_at (self, i);
          GskRoundedRect rr;
          GdkRGBA c, edge = { 1, 1, 1, 0.55 };
          float widths[4] = { 1, 1, 1, 1 };
          GdkRGBA edges[4];

          if (!gtk_toggle_button_get_active (self->buttons->pdata[i]))
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

/* ---- GObject */

static int
focused_button (TagdCloud *self)
{
  for (guint i = 0; i < self->buttons->len; i++)
    if (gtk_widget_has_focus (self->buttons->pdata[i]))
      return (int) i;
  return -1;
}

/* The cloud is one Tab stop: Tab enters at the tag that had the focus last (else the first
 * selected, else the first) and leaves from any tag; the arrow keys move between tags, in
 * reading order (Left/Up back, Right/Down on; mirrored right to left), Home and End to the ends. */
static gboolean
tagd_cloud_focus (GtkWidget *widget, GtkDirectionType direction)
{
  TagdCloud *self = TAGD_CLOUD (widget);
  int n = (int) self->buttons->len, at = focused_button (self), to;
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;

  if (n == 0)
    return FALSE;
  if (at < 0)
    {
      to = self->current >= 0 && self->current < n ? self->current : 0;
      if (self->current < 0)
        for (int i = 0; i < n; i++)
          if (gtk_toggle_button_get_active (self->buttons->pdata[i]))
            {
              to = i;
              break;
            }
      self->current = to;
      return gtk_widget_grab_focus (self->buttons->pdata[to]);
    }
  switch (direction)
    {
    case GTK_DIR_TAB_FORWARD:
    case GTK_DIR_TAB_BACKWARD:
      return FALSE;
    case GTK_DIR_LEFT:
      to = rtl ? at + 1 : at - 1;
      break;
    case GTK_DIR_RIGHT:
      to = rtl ? at - 1 : at + 1;
      break;
    case GTK_DIR_UP:
      to = at - 1;
      break;
    case GTK_DIR_DOWN:
    default:
      to = at + 1;
      break;
    }
  to = CLAMP (to, 0, n - 1);
  self->current = to;
  if (to != at)
    gtk_widget_grab_focus (self->buttons->pdata[to]);
  return TRUE;
}

static gboolean
on_cloud_key (GtkEventControllerKey *controller, guint keyval, guint keycode,
              GdkModifierType state, TagdCloud *self)
{
  int n = (int) self->buttons->len;
  if (focused_button (self) < 0 || n == 0 || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)))
    return FALSE;
  if (keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home)
    self->current = 0;
  else if (keyval == GDK_KEY_End || keyval == GDK_KEY_KP_End)
    self->current = n - 1;
  else
    return FALSE;
  return gtk_widget_grab_focus (self->buttons->pdata[self->current]);
  return FALSE;
}

static void
tagd_cloud_constructed (GObject *object)
{
  TagdCloud *self = TAGD_CLOUD (object);
  G_OBJECT_CLASS (tagd_cloud_parent_class)->constructed (object);
  _tagd_session_start (self->session);
}

static void
tagd_cloud_dispose (GObject *object)
{
  TagdCloud *self = TAGD_CLOUD (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  _tagd_session_stop (self->session);
  if (self->buttons != NULL)
    {
      for (guint i = 0; i < self->buttons->len; i++)
        gtk_widget_unparent (self->buttons->pdata[i]);
      g_clear_pointer (&self->buttons, g_ptr_array_unref);
    }
  G_OBJECT_CLASS (tagd_cloud_parent_class)->dispose (object);
}

static void
tagd_cloud_finalize (GObject *object)
{
  TagdCloud *self = TAGD_CLOUD (object);
  g_strfreev (self->titles);
  g_strfreev (self->tints);
  g_strfreev (self->selection);
  g_array_unref (self->frames);
  g_free (self->group_of);
  _tagd_session_free (self->session);
  G_OBJECT_CLASS (tagd_cloud_parent_class)->finalize (object);
}

static void
tagd_cloud_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TagdCloud *self = TAGD_CLOUD (object);
  switch (prop_id)
    {
    case PROP_TITLES: g_value_set_boxed (value, self->titles); break;
    case PROP_SELECTION: g_value_set_boxed (value, self->selection); break;
    case PROP_SPACING: g_value_set_double (value, self->spacing); break;
    case PROP_MERGE_DISTANCE: g_value_set_double (value, self->merge_distance); break;
    case PROP_ANIMATING: g_value_set_boolean (value, self->tick_id != 0); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_cloud_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TagdCloud *self = TAGD_CLOUD (object);
  switch (prop_id)
    {
    case PROP_TITLES: tagd_cloud_set_tags (self, g_value_get_boxed (value), NULL); break;
    case PROP_SELECTION: tagd_cloud_set_selection (self, g_value_get_boxed (value)); break;
    case PROP_SPACING: tagd_cloud_set_spacing (self, g_value_get_double (value)); break;
    case PROP_MERGE_DISTANCE: tagd_cloud_set_merge_distance (self, g_value_get_double (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_cloud_class_init (TagdCloudClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tagd_cloud_constructed;
  object_class->dispose = tagd_cloud_dispose;
  object_class->finalize = tagd_cloud_finalize;
  object_class->get_property = tagd_cloud_get_property;
  object_class->set_property = tagd_cloud_set_property;
  widget_class->measure = tagd_cloud_measure;
  widget_class->size_allocate = tagd_cloud_size_allocate;
  widget_class->snapshot = tagd_cloud_snapshot;
  widget_class->focus = tagd_cloud_focus;

  /**
   * TagdCloud:titles: (type GStrv)
   *
   * The tags' titles (their identities), in order. Setting it drops the tints; use
   * tagd_cloud_set_tags() to give both.
   */
  properties[PROP_TITLES] =
    g_param_spec_boxed ("titles", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:selection: (type GStrv)
   *
   * The selected titles, in tag order.
   */
  properties[PROP_SELECTION] =
    g_param_spec_boxed ("selection", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:spacing:
   *
   * The gap between tags, in pixels. A change animates (0.7 s) unless animations are off.
   */
  properties[PROP_SPACING] =
    g_param_spec_double ("spacing", NULL, NULL, 0, 1000, 18,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:merge-distance:
   *
   * Tags closer than this are drawn as one shape.
   */
  properties[PROP_MERGE_DISTANCE] =
    g_param_spec_double ("merge-distance", NULL, NULL, 0, 1000, 10,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:animating:
   *
   * Whether a spacing animation is running.
   */
  properties[PROP_ANIMATING] =
    g_param_spec_boolean ("animating", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "tagd-cloud");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_cloud_init (TagdCloud *self)
{
  _tagd_style_ensure ();
  self->session = _tagd_session_new (G_OBJECT (self), &session_class);
  self->buttons = g_ptr_array_new_with_free_func (g_object_unref);
  self->titles = g_new0 (char *, 1);
  self->tints = g_new0 (char *, 1);
  self->selection = g_new0 (char *, 1);
  self->spacing = 18;
  self->merge_distance = 10;
  self->layout_width = -1;
  self->frames = g_array_new (FALSE, TRUE, sizeof (graphene_rect_t));
  self->current = -1;
  {
    GtkEventController *keys = gtk_event_controller_key_new ();
    g_signal_connect (keys, "key-pressed", G_CALLBACK (on_cloud_key), self);
    gtk_widget_add_controller (GTK_WIDGET (self), keys);
  }
}

/* ---- public API */

/**
 * tagd_cloud_new:
 *
 * Returns: a new, empty tag cloud
 */
GtkWidget *
tagd_cloud_new (void)
{
  return g_object_new (TAGD_TYPE_CLOUD, NULL);
}

/**
 * tagd_cloud_set_tags:
 * @self: the cloud
 * @titles: (array zero-terminated=1): the titles, unique
 * @tints: (array zero-terminated=1) (nullable): a CSS colour per title ("" for none), or %NULL
 *
 * Replaces the tags; the selection keeps the titles that remain.
 */
void
tagd_cloud_set_tags (TagdCloud *self, const char * const *titles, const char * const *tints)
{
  guint n;
  char **selection;
  GPtrArray *kept;

  g_return_if_fail (TAGD_IS_CLOUD (self));
  g_return_if_fail (titles != NULL);
  n = g_strv_length ((char **) titles);
  g_strfreev (self->titles);
  g_strfreev (self->tints);
  self->titles = g_strdupv ((char **) titles);
  self->tints = g_new0 (char *, n + 1);
  for (guint i = 0, have = tints != NULL; i < n; i++)
    {
      if (have && tints[i] == NULL)
        have = FALSE;
      self->tints[i] = g_strdup (have ? tints[i] : "");
    }
  kept = g_ptr_array_new ();
  for (guint i = 0; self->selection[i] != NULL; i++)
    if (g_strv_contains (titles, self->selection[i]))
      g_ptr_array_add (kept, g_strdup (self->selection[i]));
  g_ptr_array_add (kept, NULL);
  selection = (char **) g_ptr_array_free (kept, FALSE);
  g_strfreev (self->selection);
  self->selection = selection;
  rebuild_buttons (self);
  _tagd_session_reopen (self->session, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLES]);
}

/**
 * tagd_cloud_get_titles:
 * @self: the cloud
 *
 * Returns: (transfer none) (array zero-terminated=1): the titles
 */
const char * const *
tagd_cloud_get_titles (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  return (const char * const *) self->titles;
}

/**
 * tagd_cloud_get_selection:
 * @self: the cloud
 *
 * Returns: (transfer none) (array zero-terminated=1): the selected titles
 */
const char * const *
tagd_cloud_get_selection (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  return (const char * const *) self->selection;
}

/**
 * tagd_cloud_set_selection:
 * @self: the cloud
 * @selection: (array zero-terminated=1) (nullable): the titles to select
 */
void
tagd_cloud_set_selection (TagdCloud *self, const char * const *selection)
{
  const char *empty[] = { NULL };
  g_return_if_fail (TAGD_IS_CLOUD (self));
  if (selection == NULL)
    selection = empty;
  if (!_tagd_session_started (self->session))
    {
      set_selection_internal (self, g_strdupv ((char **) selection));
      return;
    }
  _tagd_session_request (self->session, "cloud/select",
                         g_variant_new_parsed ("{'selection': <%^as>}", selection), 0, NULL);
}

double
tagd_cloud_get_spacing (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), 0);
  return self->spacing;
}

void
tagd_cloud_set_spacing (TagdCloud *self, double spacing)
{
  double from;

  g_return_if_fail (TAGD_IS_CLOUD (self));
  if (self->spacing == spacing)
    return;
  from = self->spacing;
  self->spacing = spacing;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SPACING]);
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || !animations_enabled (self) ||
      self->frames->len != self->buttons->len)
    {
      request_layout (self, FALSE, 1.0);
      return;
    }
  self->anim_from = from;
  self->anim_start = gdk_frame_clock_get_frame_time (gtk_widget_get_frame_clock (GTK_WIDGET (self)));
  self->anim_done = FALSE;
  if (self->tick_id == 0)
    {
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), animation_tick, NULL, NULL);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANIMATING]);
    }
}

double
tagd_cloud_get_merge_distance (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), 0);
  return self->merge_distance;
}

void
tagd_cloud_set_merge_distance (TagdCloud *self, double merge_distance)
{
  g_return_if_fail (TAGD_IS_CLOUD (self));
  if (self->merge_distance == merge_distance)
    return;
  self->merge_distance = merge_distance;
  request_layout (self, FALSE, 1.0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MERGE_DISTANCE]);
}

gboolean
tagd_cloud_get_animating (TagdCloud *self)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), FALSE);
  return self->tick_id != 0;
}

/**
 * tagd_cloud_get_groups:
 * @self: the cloud
 * @n_tags: (out): the number of tags
 *
 * The merge groups of the layout on screen: for each tag, the index of its group (tags that
 * share an index are drawn as one shape).
 *
 * Returns: (array length=n_tags) (transfer full) (nullable): the group index of each tag, or
 *   %NULL before the first layout
 */
int *
tagd_cloud_get_groups (TagdCloud *self, guint *n_tags)
{
  g_return_val_if_fail (TAGD_IS_CLOUD (self), NULL);
  *n_tags = 0;
  if (self->group_of == NULL || self->frames->len != self->buttons->len)
    return NULL;
  *n_tags = self->buttons->len;
  return g_memdup2 (self->group_of, sizeof (int) * MAX (self->buttons->len, 1));
}
