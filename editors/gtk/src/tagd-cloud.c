/* tagd-cloud.c: a selectable tag cloud; tagd keeps the selection and places the tags. The
 * type, its properties and API, the tags' buttons, the cloud's session in tagd and its keys;
 * layout, animation and the glass are in the other tagd-cloud-*.c (tagd-cloud-private.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"

#include "tagd-cloud-private.h"
#include "tagd-style.h"

GParamSpec *_tagd_cloud_properties[N_PROPS];
#define properties _tagd_cloud_properties

G_DEFINE_FINAL_TYPE (TagdCloud, tagd_cloud, GTK_TYPE_WIDGET)

/* Each tag is a plain GtkButton with the check-box role, whose checked state is kept here: its
 * :checked style and its accessible CHECKED state, in step. Orca 43 then says "checked" / "not
 * checked" once per toggle. (A GTK 4.8 GtkToggleButton also changes its PRESSED state, which
 * Orca speaks as a second "not checked"; and as a push button it is not spoken at all.) */
gboolean
_tagd_cloud_tag_get_active (GtkWidget *button)
{
  return (gtk_widget_get_state_flags (button) & GTK_STATE_FLAG_CHECKED) != 0;
}

static void
tag_set_active (GtkWidget *button, gboolean active)
{
  if (active == _tagd_cloud_tag_get_active (button))
    return;
  if (active)
    gtk_widget_set_state_flags (button, GTK_STATE_FLAG_CHECKED, FALSE);
  else
    gtk_widget_unset_state_flags (button, GTK_STATE_FLAG_CHECKED);
  gtk_accessible_update_state (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_STATE_CHECKED,
                               active ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

static void
set_selection_internal (TagdCloud *self, char **selection /* transfer full */)
{
  for (guint i = 0; i < self->buttons->len; i++)
    {
      gboolean on = g_strv_contains ((const char * const *) selection, self->titles[i]);
      tag_set_active (self->buttons->pdata[i], on);
    }
  if (_tagd_strv_equal (self->selection, selection))
    {
      g_strfreev (selection);
      return;
    }
  g_strfreev (self->selection);
  self->selection = selection;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION]);
  _tagd_cloud_vault_selection_changed (self);
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

/* A click, Space or Return on a tag: it shows its new state at once and tagd hears of it
 * (cloud/toggle); tagd's answer then decides. */
static void
on_clicked (GtkButton *button, TagdCloud *self)
{
  const char *title = g_object_get_data (G_OBJECT (button), "tagd-title");
  guint index;

  tag_set_active (GTK_WIDGET (button), !_tagd_cloud_tag_get_active (GTK_WIDGET (button)));
  if (g_ptr_array_find (self->buttons, button, &index))
    self->current = (int) index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  _tagd_session_request (self->session, "cloud/toggle", g_variant_new_parsed ("{'title': <%s>}", title), 0, NULL, NULL);
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
      GtkWidget *b = g_object_new (GTK_TYPE_BUTTON, "label", self->titles[i],
                                   "accessible-role", GTK_ACCESSIBLE_ROLE_CHECKBOX, NULL);
      gtk_widget_add_css_class (b, "flat");
      gtk_widget_add_css_class (b, "tagd-cloud-tag");
      g_object_set_data_full (G_OBJECT (b), "tagd-title", g_strdup (self->titles[i]), g_free);
      gtk_widget_set_child_visible (b, FALSE);
      gtk_widget_set_parent (b, GTK_WIDGET (self));
      g_ptr_array_add (self->buttons, g_object_ref (b));
      gtk_accessible_update_state (GTK_ACCESSIBLE (b), GTK_ACCESSIBLE_STATE_CHECKED, GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
      tag_set_active (b, self->selection && g_strv_contains ((const char * const *) self->selection, self->titles[i]));
      g_signal_connect (b, "clicked", G_CALLBACK (on_clicked), self);
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
session_open_params (TagdSession *session, const TagdRequest *first, TagdCloud *self)
{
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
session_opened (TagdSession *session, GVariant *result, TagdCloud *self)
{
  apply_state (self, result);
}

static void
session_held_sent (TagdSession *session, TagdCloud *self)
{
  /* A vault's tags are asked again from a new tagd (the last answer may have been lost). */
  if (self->vault != NULL && _tagd_connection_generation (tagd_connection_get_default ()) != self->vault_generation)
    {
      self->vault_generation = _tagd_connection_generation (tagd_connection_get_default ());
      tagd_cloud_reload (self);
    }
  self->layout_width = -1;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

static void
session_answered (TagdSession *session, const TagdRequest *request, GVariant *result, const GError *error,
                  gboolean current, TagdCloud *self)
{
  if (error != NULL)
    _tagd_report_error (request->method, error);
  else if (current)
    apply_state (self, result);
}

/* ---- layout */

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
          if (_tagd_cloud_tag_get_active (self->buttons->pdata[i]))
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

  _tagd_cloud_stop_animation (self);
  _tagd_cloud_vault_dispose (self);
  _tagd_session_stop (self->session);
  g_signal_handlers_disconnect_by_data (self->session, self);
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
  g_strfreev (self->notes);
  g_strfreev (self->note_titles);
  g_array_unref (self->frames);
  g_free (self->group_of);
  g_object_unref (self->session);
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
    case PROP_VAULT: g_value_set_string (value, self->vault); break;
    case PROP_NOTES: g_value_set_boxed (value, self->notes); break;
    case PROP_NOTE_TITLES: g_value_set_boxed (value, self->note_titles); break;
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
    case PROP_VAULT: tagd_cloud_set_vault (self, g_value_get_string (value)); break;
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
  widget_class->measure = _tagd_cloud_measure;
  widget_class->size_allocate = _tagd_cloud_size_allocate;
  widget_class->snapshot = _tagd_cloud_snapshot;
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
  /**
   * TagdCloud:vault:
   *
   * A folder of Markdown and Org notes (SPEC §6d): the cloud then shows its tags, those carried
   * by the most notes first, and [property@Tagd.Cloud:notes] names the notes that carry every
   * selected tag. %NULL for none (the cloud shows the tags it is given).
   */
  properties[PROP_VAULT] =
    g_param_spec_string ("vault", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:notes: (type GStrv)
   *
   * With a vault: the `file://` URIs of the notes that carry every selected tag (none while
   * nothing is selected), in the vault's order.
   */
  properties[PROP_NOTES] =
    g_param_spec_boxed ("notes", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdCloud:note-titles: (type GStrv)
   *
   * The titles of [property@Tagd.Cloud:notes], in the same order.
   */
  properties[PROP_NOTE_TITLES] =
    g_param_spec_boxed ("note-titles", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "tagd-cloud");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_cloud_init (TagdCloud *self)
{
  _tagd_style_ensure ();
  self->session = _tagd_session_new ("cloud", "cloud");
  g_signal_connect (self->session, "open-params", G_CALLBACK (session_open_params), self);
  g_signal_connect (self->session, "held-sent", G_CALLBACK (session_held_sent), self);
  g_signal_connect (self->session, "opened", G_CALLBACK (session_opened), self);
  g_signal_connect (self->session, "answered", G_CALLBACK (session_answered), self);
  self->buttons = g_ptr_array_new_with_free_func (g_object_unref);
  self->titles = g_new0 (char *, 1);
  self->tints = g_new0 (char *, 1);
  self->selection = g_new0 (char *, 1);
  self->notes = g_new0 (char *, 1);
  self->note_titles = g_new0 (char *, 1);
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
                         g_variant_new_parsed ("{'selection': <%^as>}", selection), 0, NULL, NULL);
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
  _tagd_cloud_animate_spacing (self, from);
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
  _tagd_cloud_request_layout (self, FALSE, 1.0);
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
