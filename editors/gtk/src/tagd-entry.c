/* tagd-entry.c: a tag entry whose rules and layout come from tagd.
 *
 * The entry owns its text (a GtkText) and reports every change of it to tagd with
 * field/didChange, as an editor reports its buffer (Protocol/sync.md). tagd answers, when it
 * likes, with field/didUpdate: the tags, and edits that delete the text that became tags,
 * stamped with the buffer version they were computed for. The entry applies them only if the
 * buffer is still at that version, so a key typed while a reply is in flight is never lost and
 * never becomes a tag twice.
 *
 * Layout: each chip is measured with gtk_widget_measure(), the sizes go to field/layout, and
 * the chips and the text are placed at the frames that come back. The reply is asynchronous,
 * so until it arrives every chip keeps the frame it had; a chip that has no frame yet (just
 * added) is not shown, and the text keeps its last frame (the whole width before the first
 * reply). When the reply arrives the entry queues a resize and is placed exactly. See README.
 *
 * SPDX-License-Identifier: MIT
 */
#include "config.h"


#include "tagd-entry.h"
#include "tagd-enums.h"
#include "tagd-private.h"
#include "tagd-style.h"

#define CHIP_SPACING 6.0

/* ------------------------------------------------------------------------------------------ */
/* TagdChip: a tag's label and its remove button. Private to the entry. */

#define TAGD_TYPE_CHIP (tagd_chip_get_type ())
G_DECLARE_FINAL_TYPE (TagdChip, tagd_chip, TAGD, CHIP, GtkWidget)

struct _TagdChip {
  GtkWidget        parent_instance;
  char            *tag;
  GtkWidget       *label;
  GtkWidget       *button;
  gboolean         has_frame;
  graphene_rect_t  frame;
  guint            flash_source;
  gboolean         removing;   /* field/removeTag sent: hidden until tagd answers */
};

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

static TagdChip *
tagd_chip_new (const char *tag)
{
  TagdChip *chip = g_object_new (TAGD_TYPE_CHIP, NULL);
  g_autofree char *remove = g_strdup_printf ("Remove %s", tag);

  chip->tag = g_strdup (tag);
  gtk_widget_set_focusable (GTK_WIDGET (chip), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "tagd-chip");
  chip->label = gtk_label_new (tag);
  gtk_label_set_ellipsize (GTK_LABEL (chip->label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (chip->label), TRUE);
  gtk_widget_set_parent (chip->label, GTK_WIDGET (chip));
  chip->button = gtk_button_new_from_icon_name ("window-close-symbolic");
  gtk_widget_add_css_class (chip->button, "flat");
  gtk_widget_add_css_class (chip->button, "circular");
  gtk_widget_set_focusable (chip->button, FALSE);
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

static void
tagd_chip_flash (TagdChip *chip)
{
  g_clear_handle_id (&chip->flash_source, g_source_remove);
  gtk_widget_add_css_class (GTK_WIDGET (chip), "flash");
  chip->flash_source = g_timeout_add (900, unflash_cb, chip);
}

/* ------------------------------------------------------------------------------------------ */
/* TagdText: holds the GtkText and delegates GtkEditable to it, as GtkEntry does. GTK 4.8 gives
 * the AT-SPI Text interface only to an editable whose delegate is a GtkText, so a bare GtkText
 * (even with a role) would show in the tree with no readable text. */

#define TAGD_TYPE_TEXT (tagd_text_get_type ())
G_DECLARE_FINAL_TYPE (TagdText, tagd_text, TAGD, TEXT, GtkWidget)

struct _TagdText {
  GtkWidget  parent_instance;
  GtkWidget *text;
};

static void tagd_text_editable_init (GtkEditableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TagdText, tagd_text, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_EDITABLE, tagd_text_editable_init))

static GtkEditable *
tagd_text_get_delegate (GtkEditable *editable)
{
  return GTK_EDITABLE (TAGD_TEXT (editable)->text);
}

static void
tagd_text_editable_init (GtkEditableInterface *iface)
{
  iface->get_delegate = tagd_text_get_delegate;
}

static void
tagd_text_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  if (!gtk_editable_delegate_set_property (object, prop_id, value, pspec))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
tagd_text_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  if (!gtk_editable_delegate_get_property (object, prop_id, value, pspec))
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static gboolean
tagd_text_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (TAGD_TEXT (widget)->text);
}

static void
tagd_text_dispose (GObject *object)
{
  TagdText *self = TAGD_TEXT (object);
  if (self->text != NULL)
    gtk_editable_finish_delegate (GTK_EDITABLE (self));
  g_clear_pointer (&self->text, gtk_widget_unparent);
  G_OBJECT_CLASS (tagd_text_parent_class)->dispose (object);
}

static void
tagd_text_class_init (TagdTextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tagd_text_dispose;
  object_class->set_property = tagd_text_set_property;
  object_class->get_property = tagd_text_get_property;
  gtk_editable_install_properties (object_class, 1);
  widget_class->grab_focus = tagd_text_grab_focus;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tagd-text");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_TEXT_BOX);
}

static void
tagd_text_init (TagdText *self)
{
  self->text = gtk_text_new ();
  gtk_widget_set_hexpand (self->text, TRUE);
  gtk_widget_set_parent (self->text, GTK_WIDGET (self));
  gtk_editable_init_delegate (GTK_EDITABLE (self));
}

/* ------------------------------------------------------------------------------------------ */

struct _TagdEntry {
  GtkWidget        parent_instance;

  GtkWidget       *text_box;        /* TagdText: what layout places and AT-SPI reads */
  GtkWidget       *text;            /* its GtkText */
  GtkEntryBuffer  *buffer;
  GPtrArray       *chips;           /* TagdChip*, in tag order; children of the entry */
  char           **tags;
  char            *prompt;
  char           **separators;      /* NULL: tagd's default set */
  int              max_tags;        /* -1: no limit of the widget's own */
  int              max_tag_length;  /* -1: no limit of the widget's own */
  gboolean         case_sensitive;
  TagdTransform    transform;
  char            *announcement;
  int              selected;        /* index of the selected chip, or -1 */

  TagdConnection  *conn;
  char            *field;           /* the session id in tagd */
  gint64           version;         /* the buffer's version, as reported to tagd */
  gint64           state_version;   /* the newest FieldState version applied */
  GString         *mirror;          /* the buffer as last reported (UTF-8) */
  gboolean         applying;        /* applying tagd's edits: not user changes */
  guint            rebuilds;        /* how often the chip list changed */
  guint            open_source;

  /* layout */
  double           layout_width;    /* the width of the last field/layout request, or -1 */
  guint            layout_serial;   /* serial of the last request sent */
  guint            layout_applied;  /* serial of the last reply applied */
  gboolean         has_text_frame;
  graphene_rect_t  text_frame;
  double           layout_height;   /* size.height of the last layout applied, or -1 */
};

enum {
  PROP_0,
  PROP_TAGS,
  PROP_PROMPT,
  PROP_SEPARATORS,
  PROP_MAX_TAGS,
  PROP_MAX_TAG_LENGTH,
  PROP_CASE_SENSITIVE,
  PROP_TRANSFORM,
  PROP_ANNOUNCEMENT,
  N_PROPS
};
static GParamSpec *properties[N_PROPS];

enum { SIGNAL_TAGS_CHANGED, SIGNAL_TAG_DROPPED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TagdEntry, tagd_entry, GTK_TYPE_WIDGET)

static void send_open (TagdEntry *self);
static void request_layout (TagdEntry *self);
static void select_chip (TagdEntry *self, int index);
static void chip_remove_clicked (GtkButton *button, gpointer data);
static int nearest_chip (TagdEntry *self, int from, int step);
static void remove_chip (TagdEntry *self, TagdChip *chip);
static void chip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data);

/* ---- positions: character offsets <-> {line, character} (utf-32, lines split at CR, LF, CRLF) */

static GVariant *
position_at (const char *text, glong offset)
{
  glong line = 0, character = 0;
  const char *p = text;

  for (glong i = 0; i < offset && *p; i++)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);
      if (c == '\n' || (c == '\r' && *next != '\n'))
        {
          line++;
          character = 0;
        }
      else if (c != '\r')
        character++;
      else
        character++; /* CR of a CRLF: still on this line until the LF */
      p = next;
    }
  return g_variant_new_parsed ("{'line': <%x>, 'character': <%x>}", (gint64) line, (gint64) character);
}

static glong
offset_of (const char *text, gint64 line, gint64 character)
{
  glong offset = 0;
  const char *p = text;

  while (line > 0 && *p)
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);
      offset++;
      if (c == '\n' || (c == '\r' && *next != '\n'))
        line--;
      p = next;
    }
  return offset + (glong) character;
}

static GVariant *
range_variant (const char *text, glong start, glong end)
{
  return g_variant_new_parsed ("{'start': %v, 'end': %v}",
                               position_at (text, start), position_at (text, end));
}

/* ---- talking to tagd */

typedef struct {
  TagdEntry *self;
  char      *field;
  gboolean   add_tags;
  gboolean   remove_tag;
  TagdChip  *chip;          /* for field/removeTag: the chip being removed */
  guint      serial;
  guint      rebuilds;      /* chip list generation when the request was sent */
  GPtrArray *chips;
} Reply;

static Reply *
reply_new (TagdEntry *self)
{
  Reply *r = g_new0 (Reply, 1);
  r->self = g_object_ref (self);
  r->field = g_strdup (self->field);
  return r;
}

static void
reply_free (Reply *r)
{
  g_object_unref (r->self);
  g_free (r->field);
  if (r->chips)
    g_ptr_array_unref (r->chips);
  g_clear_object (&r->chip);
  g_free (r);
}

static void
report_error (const char *method, const GError *error)
{
  if (g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED))
    return;
  /* A refusal from tagd is a bug in this widget: say so loudly (the tests fail on warnings). */
  g_warning ("tagd: %s failed: %s", method, error->message);
}

static gboolean
strv_equal (char **a, char **b)
{
  guint na = a ? g_strv_length (a) : 0, nb = b ? g_strv_length (b) : 0;
  if (na != nb)
    return FALSE;
  for (guint i = 0; i < na; i++)
    if (g_strcmp0 (a[i], b[i]) != 0)
      return FALSE;
  return TRUE;
}

static void
rebuild_chips (TagdEntry *self)
{
  GPtrArray *old = self->chips;
  guint n = self->tags ? g_strv_length (self->tags) : 0;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  gboolean chip_had_focus = FALSE;
  TagdChip *was_selected = self->selected >= 0 && self->selected < (int) old->len ? old->pdata[self->selected] : NULL;
  int old_selected = self->selected;

  self->rebuilds++;
  self->chips = g_ptr_array_new_with_free_func (g_object_unref);
  /* Reuse a chip for a tag that is still there (it keeps its frame until the new layout).
   * Tags are unique, so a table of the old chips by tag finds them. */
  g_autoptr (GHashTable) by_tag = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint j = 0; j < old->len; j++)
    g_hash_table_insert (by_tag, TAGD_CHIP (old->pdata[j])->tag, GUINT_TO_POINTER (j + 1));
  for (guint i = 0; i < n; i++)
    {
      TagdChip *chip = NULL;
      guint j = GPOINTER_TO_UINT (g_hash_table_lookup (by_tag, self->tags[i]));
      if (j > 0 && old->pdata[j - 1] != NULL)
        {
          chip = old->pdata[j - 1];
          old->pdata[j - 1] = NULL;
        }
      if (chip == NULL)
        {
          chip = tagd_chip_new (self->tags[i]);
          g_object_ref_sink (chip);
          gtk_widget_insert_before (GTK_WIDGET (chip), GTK_WIDGET (self), self->text_box);
          gtk_widget_set_child_visible (GTK_WIDGET (chip), FALSE);
          g_signal_connect (chip->button, "clicked", G_CALLBACK (chip_remove_clicked), self);
          {
            GtkGesture *click = gtk_gesture_click_new ();
            g_signal_connect (click, "pressed", G_CALLBACK (chip_pressed), self);
            gtk_widget_add_controller (GTK_WIDGET (chip), GTK_EVENT_CONTROLLER (click));
          }
        }
      g_ptr_array_add (self->chips, chip);
    }
  for (guint j = 0; j < old->len; j++)
    {
      TagdChip *c = old->pdata[j];
      if (c == NULL)
        continue;
      if (focus != NULL && (focus == GTK_WIDGET (c) || gtk_widget_is_ancestor (focus, GTK_WIDGET (c))))
        chip_had_focus = TRUE;
      gtk_widget_unparent (GTK_WIDGET (c));
      g_object_unref (c);
    }
  g_ptr_array_set_free_func (old, NULL);
  g_ptr_array_free (old, TRUE);

  if (old_selected >= 0)
    {
      guint index;
      /* The selected chip keeps the selection if it is still there; else the nearest one. */
      if (was_selected != NULL && g_ptr_array_find (self->chips, was_selected, &index))
        select_chip (self, (int) index);
      else
        select_chip (self, nearest_chip (self, MIN (old_selected, (int) self->chips->len - 1), -1));
    }
  else if (chip_had_focus)
    gtk_widget_grab_focus (self->text);

  request_layout (self);
}

static void
set_tags_internal (TagdEntry *self, char **tags /* transfer full */)
{
  if (strv_equal (self->tags, tags))
    {
      g_strfreev (tags);
      return;
    }
  g_strfreev (self->tags);
  self->tags = tags;
  rebuild_chips (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TAGS]);
  g_signal_emit (self, signals[SIGNAL_TAGS_CHANGED], 0);
}

static void
set_announcement (TagdEntry *self, const char *sentence)
{
  if (sentence == NULL || sentence[0] == '\0')
    return;
  g_free (self->announcement);
  self->announcement = g_strdup (sentence);
  /* GTK 4.8 has no gtk_accessible_announce() (4.14+): the sentence becomes the accessible
   * description of the focused text, which AT-SPI reports as a property change. */
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_box),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, sentence, -1);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ANNOUNCEMENT]);
}

static void
apply_outcome (TagdEntry *self, GVariant *outcome)
{
  g_autoptr (GVariant) dropped = _tagd_variant_lookup (outcome, "dropped");
  GVariantIter iter;
  GVariant *item;

  if (dropped == NULL)
    return;
  g_variant_iter_init (&iter, dropped);
  while ((item = g_variant_iter_next_value (&iter)))
    {
      g_autoptr (GVariant) d = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
      const char *text = "", *reason = "";
      int index = (int) _tagd_variant_number (d, "duplicateOf", -1);

      g_variant_lookup (d, "text", "&s", &text);
      g_variant_lookup (d, "reason", "&s", &reason);
      if (g_str_equal (reason, "duplicate") && index >= 0 && (guint) index < self->chips->len)
        tagd_chip_flash (self->chips->pdata[index]);
      g_signal_emit (self, signals[SIGNAL_TAG_DROPPED], 0, text, reason, index);
      g_variant_unref (item);
    }
}

/* Takes the tags of a FieldState or update if it is newer than what the entry shows. */
static void
apply_state (TagdEntry *self, GVariant *state, const char *version_key, gboolean announce)
{
  gint64 version = (gint64) _tagd_variant_number (state, version_key, 0);
  g_autoptr (GVariant) tags = _tagd_variant_lookup (state, "tags");
  g_autoptr (GVariant) outcome = _tagd_variant_lookup (state, "outcome");
  const char *sentence = NULL;

  if (version <= self->state_version)
    return;
  self->state_version = version;
  if (tags != NULL)
    set_tags_internal (self, _tagd_variant_strv (tags));
  if (announce)
    {
      apply_outcome (self, outcome);
      if (g_variant_lookup (state, "announcement", "&s", &sentence))
        set_announcement (self, sentence);
    }
}

static void
on_state_reply (GVariant *result, const GError *error, gpointer data)
{
  Reply *r = data;
  TagdEntry *self = r->self;

  if (r->chip != NULL && r->chip->removing)
    {
      /* Answered: tagd's tags now decide. If the chip is still a child, its tag is still
       * there (the removal failed), so it shows again. */
      r->chip->removing = FALSE;
      gtk_widget_queue_allocate (GTK_WIDGET (self));
    }
  if (error != NULL && r->remove_tag && g_error_matches (error, TAGD_ERROR, TAGD_ERROR_INVALID_PARAMS))
    /* The tag was already gone (× clicked twice, or Delete pressed twice before the reply). */
    g_debug ("tagd: field/removeTag: %s", error->message);
  else if (error != NULL)
    report_error ("request", error);
  else if (g_strcmp0 (r->field, self->field) == 0 && result != NULL)
    {
      g_autoptr (GVariant) outcome = _tagd_variant_lookup (result, "outcome");
      g_autoptr (GVariant) added = _tagd_variant_lookup (outcome, "added");
      g_autoptr (GVariant) removed = _tagd_variant_lookup (outcome, "removed");
      const char *sentence = NULL;

      apply_state (self, result, "version", TRUE);
      /* field/addTags that only dropped candidates changes nothing, so no field/didUpdate
       * reports it: the reply is the only place its outcome appears. */
      if (r->add_tags && added && removed && g_variant_n_children (added) == 0 &&
          g_variant_n_children (removed) == 0)
        {
          apply_outcome (self, outcome);
          if (g_variant_lookup (result, "announcement", "&s", &sentence))
            set_announcement (self, sentence);
        }
    }
  reply_free (r);
}

static void
on_open_reply (GVariant *result, const GError *error, gpointer data)
{
  Reply *r = data;
  if (error != NULL)
    report_error ("field/open", error);
  else if (g_strcmp0 (r->field, r->self->field) == 0)
    apply_state (r->self, result, "version", FALSE);
  reply_free (r);
}

static void
on_ignore_reply (GVariant *result, const GError *error, gpointer data)
{
  if (error != NULL && !g_error_matches (error, TAGD_ERROR, TAGD_ERROR_RESTARTED))
    g_debug ("tagd: %s", error->message);
  g_object_unref (data);
}

static GVariant *
field_params (TagdEntry *self)
{
  return g_variant_new_parsed ("{'field': <%s>}", self->field);
}

/* A request made before the idle field/open ran (right after construction) opens first. */
static void
ensure_open (TagdEntry *self)
{
  if (self->open_source != 0)
    send_open (self);
}

static void
call_state (TagdEntry *self, const char *method, GVariant *params, gboolean add_tags)
{
  Reply *r;

  ensure_open (self);
  r = reply_new (self);
  r->add_tags = add_tags;
  r->remove_tag = g_str_equal (method, "field/removeTag");
  _tagd_connection_call (self->conn, method, params, on_state_reply, r);
}

static void
send_change (TagdEntry *self, GVariant *changes, gint64 applied)
{
  GVariantBuilder b;

  /* Before field/open is sent, the open carries the whole text at this version. */
  if (self->field == NULL || self->open_source != 0)
    {
      g_variant_unref (g_variant_ref_sink (changes));
      return;
    }
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "field", g_variant_new_string (self->field));
  g_variant_builder_add (&b, "{sv}", "version", g_variant_new_int64 (self->version));
  if (applied >= 0)
    g_variant_builder_add (&b, "{sv}", "applied", g_variant_new_int64 (applied));
  g_variant_builder_add (&b, "{sv}", "contentChanges", changes);
  _tagd_connection_notify (self->conn, "field/didChange", g_variant_builder_end (&b));
}

static void
send_open (TagdEntry *self)
{
  GVariantBuilder b, opts;
  const char *empty[] = { NULL };

  g_clear_handle_id (&self->open_source, g_source_remove);
  self->state_version = 0;
  g_variant_builder_init (&opts, G_VARIANT_TYPE_VARDICT);
  if (self->separators != NULL)
    g_variant_builder_add (&opts, "{sv}", "separators",
                           g_variant_new_strv ((const char * const *) self->separators, -1));
  if (self->max_tags >= 0)
    g_variant_builder_add (&opts, "{sv}", "maxTags", g_variant_new_int64 (self->max_tags));
  if (self->max_tag_length >= 1)
    g_variant_builder_add (&opts, "{sv}", "maxTagLength", g_variant_new_int64 (self->max_tag_length));
  if (self->case_sensitive)
    g_variant_builder_add (&opts, "{sv}", "caseSensitive", g_variant_new_boolean (TRUE));
  if (self->transform != TAGD_TRANSFORM_NONE)
    g_variant_builder_add (&opts, "{sv}", "transform",
                           g_variant_new_string (self->transform == TAGD_TRANSFORM_LOWERCASE ? "lowercase" : "uppercase"));
  if (self->prompt != NULL)
    g_variant_builder_add (&opts, "{sv}", "prompt", g_variant_new_string (self->prompt));

  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "field", g_variant_new_string (self->field));
  g_variant_builder_add (&b, "{sv}", "tags",
                         g_variant_new_strv (self->tags ? (const char * const *) self->tags : empty, -1));
  g_variant_builder_add (&b, "{sv}", "text", g_variant_new_string (self->mirror->str));
  g_variant_builder_add (&b, "{sv}", "options", g_variant_builder_end (&opts));
  g_variant_builder_add (&b, "{sv}", "sync",
                         g_variant_new_parsed ("{'version': <%x>}", self->version));
  _tagd_connection_call (self->conn, "field/open", g_variant_builder_end (&b), on_open_reply, reply_new (self));
  /* The new session knows nothing of earlier layouts. */
  self->layout_width = -1;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

/* A new session (new id) with the widget's own tags and text: after tagd restarted, or when
 * an option changed (tagd has no method to change options of an open field). */
static void
reopen (TagdEntry *self, gboolean close_old)
{
  char *id;

  if (self->field == NULL)
    return;
  if (close_old && self->open_source == 0)
    _tagd_connection_call (self->conn, "field/close", field_params (self), on_ignore_reply, g_object_ref (self));
  id = _tagd_connection_rename (self->conn, self->field, "entry");
  g_free (self->field);
  self->field = id;
  if (self->open_source == 0)
    send_open (self);
}

static void
session_reopen (gpointer owner)
{
  reopen (TAGD_ENTRY (owner), FALSE);
}

static void
handle_update (TagdEntry *self, GVariant *params)
{
  gint64 version = (gint64) _tagd_variant_number (params, "version", -1);
  gboolean resync = FALSE;

  g_variant_lookup (params, "resync", "b", &resync);
  if (resync)
    {
      /* tagd's copy of the buffer diverged: send the whole text. */
      self->version++;
      send_change (self, g_variant_new_parsed ("[{'text': <%s>}]", self->mirror->str), -1);
      apply_state (self, params, "stateVersion", FALSE);
      return;
    }

  if (version == self->version)
    {
      g_autoptr (GVariant) edits = _tagd_variant_lookup (params, "edits");
      GVariantBuilder changes;
      GVariantIter iter;
      GVariant *item;
      gsize n = edits ? g_variant_n_children (edits) : 0;

      if (n > 0)
        {
          g_variant_builder_init (&changes, G_VARIANT_TYPE ("aa{sv}"));
          self->applying = TRUE;
          g_variant_iter_init (&iter, edits);
          while ((item = g_variant_iter_next_value (&iter)))
            {
              g_autoptr (GVariant) e = g_variant_is_of_type (item, G_VARIANT_TYPE_VARIANT) ? g_variant_get_variant (item) : g_variant_ref (item);
              g_autoptr (GVariant) range = _tagd_variant_lookup (e, "range");
              g_autoptr (GVariant) start = _tagd_variant_lookup (range, "start");
              g_autoptr (GVariant) end = _tagd_variant_lookup (range, "end");
              glong s = offset_of (self->mirror->str, (gint64) _tagd_variant_number (start, "line", 0),
                                   (gint64) _tagd_variant_number (start, "character", 0));
              glong t = offset_of (self->mirror->str, (gint64) _tagd_variant_number (end, "line", 0),
                                   (gint64) _tagd_variant_number (end, "character", 0));
              GVariantBuilder change;

              g_variant_builder_init (&change, G_VARIANT_TYPE_VARDICT);
              g_variant_builder_add (&change, "{sv}", "range", range_variant (self->mirror->str, s, t));
              g_variant_builder_add (&change, "{sv}", "text", g_variant_new_string (""));
              g_variant_builder_add_value (&changes, g_variant_builder_end (&change));
              if (t > s)
                {
                  const char *a = g_utf8_offset_to_pointer (self->mirror->str, s);
                  const char *z = g_utf8_offset_to_pointer (self->mirror->str, t);
                  g_string_erase (self->mirror, a - self->mirror->str, z - a);
                  gtk_entry_buffer_delete_text (self->buffer, (guint) s, (int) (t - s));
                }
              g_variant_unref (item);
            }
          self->applying = FALSE;
          self->version++;
          send_change (self, g_variant_builder_end (&changes), version);
        }
    }
  /* Edits for an older buffer are ignored: tagd answers the newer change with a fresh update.
   * Tags and outcome are taken either way. */
  apply_state (self, params, "stateVersion", TRUE);
}

static void
session_notify (gpointer owner, const char *method, GVariant *params)
{
  TagdEntry *self = TAGD_ENTRY (owner);
  const char *field = NULL;

  if (!g_str_equal (method, "field/didUpdate"))
    return;
  if (!g_variant_lookup (params, "field", "&s", &field) || g_strcmp0 (field, self->field) != 0)
    return;
  handle_update (self, params);
}

static const TagdSessionVTable session_vtable = { session_notify, session_reopen };

/* ---- the text's buffer: every change is reported in order */

static void
on_inserted_text (GtkEntryBuffer *buffer, guint position, const char *chars, guint n_chars, TagdEntry *self)
{
  const char *at;
  g_autofree char *inserted = NULL;

  if (self->applying)
    return;
  inserted = g_utf8_substring (chars, 0, n_chars);
  self->version++;
  send_change (self,
               g_variant_new_parsed ("[{'range': %v, 'text': <%s>}]",
                                     range_variant (self->mirror->str, position, position), inserted),
               -1);
  at = g_utf8_offset_to_pointer (self->mirror->str, position);
  g_string_insert (self->mirror, at - self->mirror->str, inserted);
}

static void
on_deleted_text (GtkEntryBuffer *buffer, guint position, guint n_chars, TagdEntry *self)
{
  glong len = g_utf8_strlen (self->mirror->str, -1);
  glong end;
  const char *a, *z;

  if (self->applying)
    return;
  end = (n_chars == G_MAXUINT || (glong) (position + n_chars) > len) ? len : (glong) (position + n_chars);
  if ((glong) position >= end)
    return;
  self->version++;
  send_change (self,
               g_variant_new_parsed ("[{'range': %v, 'text': <''>}]",
                                     range_variant (self->mirror->str, position, end)),
               -1);
  a = g_utf8_offset_to_pointer (self->mirror->str, position);
  z = g_utf8_offset_to_pointer (self->mirror->str, end);
  g_string_erase (self->mirror, a - self->mirror->str, z - a);
}

/* ---- chips: selection, removal */

/* The nearest chip to @from that is not being removed, looking in direction @step first (-1
 * or +1) and then the other way; -1 if none. */
static int
nearest_chip (TagdEntry *self, int from, int step)
{
  int n = (int) self->chips->len;
  for (int i = from; i >= 0 && i < n; i += step)
    if (!TAGD_CHIP (self->chips->pdata[i])->removing)
      return i;
  for (int i = from - step; i >= 0 && i < n; i -= step)
    if (!TAGD_CHIP (self->chips->pdata[i])->removing)
      return i;
  return -1;
}

static void
remove_chip (TagdEntry *self, TagdChip *chip)
{
  Reply *r;

  ensure_open (self);
  r = reply_new (self);

  /* Hidden at once, so that a second Delete, typed before tagd answers, removes the next
   * chip as it would for a slow typist, not the same tag again. */
  chip->removing = TRUE;
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  r->remove_tag = TRUE;
  r->chip = g_object_ref (chip);
  _tagd_connection_call (self->conn, "field/removeTag",
                         g_variant_new_parsed ("{'field': <%s>, 'tag': <%s>}", self->field, chip->tag),
                         on_state_reply, r);
}

static void
select_chip (TagdEntry *self, int index)
{
  for (guint i = 0; i < self->chips->len; i++)
    {
      GtkWidget *chip = self->chips->pdata[i];
      if ((int) i == index)
        gtk_widget_add_css_class (chip, "selected");
      else
        gtk_widget_remove_css_class (chip, "selected");
    }
  self->selected = index;
  if (index >= 0)
    gtk_widget_grab_focus (self->chips->pdata[index]);
  else
    gtk_widget_grab_focus (self->text);
}

static void
chip_remove_clicked (GtkButton *button, gpointer data)
{
  TagdEntry *self = TAGD_ENTRY (data);
  GtkWidget *chip = gtk_widget_get_parent (GTK_WIDGET (button));
  if (!TAGD_CHIP (chip)->removing)
    remove_chip (self, TAGD_CHIP (chip));
  select_chip (self, -1);
}

/* A click on a chip (not on its ×) selects it, as Left does from the text. */
static void
chip_pressed (GtkGestureClick *gesture, int n_press, double x, double y, gpointer data)
{
  TagdEntry *self = TAGD_ENTRY (data);
  GtkWidget *chip = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  guint index;

  if (gtk_widget_pick (chip, x, y, GTK_PICK_DEFAULT) != chip &&
      gtk_widget_pick (chip, x, y, GTK_PICK_DEFAULT) != TAGD_CHIP (chip)->label)
    return;
  if (g_ptr_array_find (self->chips, chip, &index))
    select_chip (self, (int) index);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                TagdEntry             *self)
{
  GdkModifierType mods = state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK | GDK_SUPER_MASK);

  /* Chips come before the text in reading order: in right-to-left layouts they are on its
   * right, so the arrow that goes "back" is Right. */
  if (gtk_widget_get_direction (GTK_WIDGET (self)) == GTK_TEXT_DIR_RTL)
    {
      if (keyval == GDK_KEY_Left || keyval == GDK_KEY_KP_Left)
        keyval = GDK_KEY_Right;
      else if (keyval == GDK_KEY_Right || keyval == GDK_KEY_KP_Right)
        keyval = GDK_KEY_Left;
    }

  if (self->selected >= 0 && self->selected < (int) self->chips->len)
    {
      int i = self->selected;
      switch (keyval)
        {
        case GDK_KEY_Left:
        case GDK_KEY_KP_Left:
          {
            int prev = i > 0 ? nearest_chip (self, i - 1, -1) : -1;
            if (prev >= 0 && prev < i)
              select_chip (self, prev);
            return TRUE;
          }
        case GDK_KEY_Right:
        case GDK_KEY_KP_Right:
          {
            int next = nearest_chip (self, i + 1, +1);
            if (next > i)
              select_chip (self, next);
            else
              {
                select_chip (self, -1);
                gtk_editable_set_position (GTK_EDITABLE (self->text), 0);
              }
            return TRUE;
          }
        case GDK_KEY_Home:
          select_chip (self, nearest_chip (self, 0, +1));
          return TRUE;
        case GDK_KEY_End:
        case GDK_KEY_Escape:
          select_chip (self, -1);
          return TRUE;
        case GDK_KEY_Delete:
        case GDK_KEY_KP_Delete:
        case GDK_KEY_BackSpace:
          {
            /* The selection moves to the next chip (Delete) or the previous one (Backspace),
             * else the other way, else back to the text. */
            int step = keyval == GDK_KEY_BackSpace ? -1 : +1;
            remove_chip (self, self->chips->pdata[i]);
            select_chip (self, nearest_chip (self, i + step, step));
            return TRUE;
          }
        default:
          return FALSE;
        }
    }

  if (!gtk_widget_has_focus (self->text))
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (mods != 0)
        return FALSE;
      call_state (self, "field/submit", field_params (self), FALSE);
      return TRUE;
    case GDK_KEY_BackSpace:
      /* "Empty" is decided now, when the key is handled (Protocol/sync.md rule 3). */
      if (gtk_entry_buffer_get_length (self->buffer) == 0 && mods == 0)
        {
          call_state (self, "field/deleteBackward", field_params (self), FALSE);
          return TRUE;
        }
      return FALSE;
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      {
        int start, end;
        if (mods == 0 && self->chips->len > 0 &&
            gtk_editable_get_position (GTK_EDITABLE (self->text)) == 0 &&
            !gtk_editable_get_selection_bounds (GTK_EDITABLE (self->text), &start, &end))
          {
            select_chip (self, (int) self->chips->len - 1);
            return TRUE;
          }
        return FALSE;
      }
    default:
      return FALSE;
    }
}

static void
on_focus_leave (GtkEventControllerFocus *controller, TagdEntry *self)
{
  /* Focus left the entry entirely: nothing stays selected. */
  for (guint i = 0; i < self->chips->len; i++)
    gtk_widget_remove_css_class (self->chips->pdata[i], "selected");
  self->selected = -1;
}

static void
on_text_focus_enter (GtkEventControllerFocus *controller, TagdEntry *self)
{
  if (self->selected >= 0)
    {
      for (guint i = 0; i < self->chips->len; i++)
        gtk_widget_remove_css_class (self->chips->pdata[i], "selected");
      self->selected = -1;
    }
}

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

static void
on_layout_reply (GVariant *result, const GError *error, gpointer data)
{
  Reply *r = data;
  TagdEntry *self = r->self;
  g_autoptr (GVariant) frames = NULL;
  g_autoptr (GVariant) size = NULL;
  gboolean same_chips;

  if (error != NULL)
    {
      /* tagd's tags moved on while this request was in flight: the field/didUpdate (or
       * field/open reply) saying so came before this reply, since tagd answers in order, and
       * rebuilt the chips, which sent a new request; or the session was re-opened under a new
       * id. Not an error of the widget's. */
      if (r->rebuilds != self->rebuilds || g_strcmp0 (r->field, self->field) != 0)
        g_debug ("tagd: stale field/layout: %s", error->message);
      else
        report_error ("field/layout", error);
      reply_free (r);
      return;
    }
  same_chips = g_strcmp0 (r->field, self->field) == 0 && r->chips->len == self->chips->len;
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
  reply_free (r);
}

static void
request_layout (TagdEntry *self)
{
  GVariantBuilder b, sizes;
  Reply *r;
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  /* Before field/open is sent, tagd would not know the id: send_open() asks again. */
  if (self->field == NULL || self->open_source != 0 || width <= 0)
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
  g_variant_builder_add (&b, "{sv}", "field", g_variant_new_string (self->field));
  g_variant_builder_add (&b, "{sv}", "width", g_variant_new_double (width));
  g_variant_builder_add (&b, "{sv}", "chipSizes", g_variant_builder_end (&sizes));
  g_variant_builder_add (&b, "{sv}", "fieldHeight", g_variant_new_double (line_height (self)));
  g_variant_builder_add (&b, "{sv}", "spacing", g_variant_new_double (CHIP_SPACING));
  g_variant_builder_add (&b, "{sv}", "fieldMinWidth", g_variant_new_double (text_min_width (self)));
  r = reply_new (self);
  r->rebuilds = self->rebuilds;
  r->serial = ++self->layout_serial;
  r->chips = g_ptr_array_new_full (self->chips->len, g_object_unref);
  for (guint i = 0; i < self->chips->len; i++)
    g_ptr_array_add (r->chips, g_object_ref (self->chips->pdata[i]));
  _tagd_connection_call (self->conn, "field/layout", g_variant_builder_end (&b), on_layout_reply, r);
}

static void
tagd_entry_measure (GtkWidget      *widget,
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
      *minimum = *natural = (int) ceil (h);
    }
}

static void
tagd_entry_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  TagdEntry *self = TAGD_ENTRY (widget);
  GtkAllocation a;
  int text_min = (int) text_min_width (self);
  /* tagd's frames flow left to right; right-to-left locales get them mirrored. */
  gboolean rtl = gtk_widget_get_direction (widget) == GTK_TEXT_DIR_RTL;

  if (self->layout_width != width)
    request_layout (self);

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
        {
          a.width = MAX (text_min, width - a.x);
        }
    }
  else
    {
      a.x = 0;
      a.y = 0;
      a.width = MAX (width, text_min);
      a.height = height;
    }
  a.height = MAX (a.height, (int) text_height (self));
  if (rtl)
    a.x = width - a.x - a.width;
  gtk_widget_size_allocate (self->text_box, &a, -1);
}

static GtkSizeRequestMode
tagd_entry_get_request_mode (GtkWidget *widget)
{
  return GTK_SIZE_REQUEST_CONSTANT_SIZE;
}

static gboolean
tagd_entry_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (TAGD_ENTRY (widget)->text);
}

static gboolean
tagd_entry_focus (GtkWidget *widget, GtkDirectionType direction)
{
  TagdEntry *self = TAGD_ENTRY (widget);
  /* Tab moves into and out of the entry as one stop: its text. Chips are reached with Left. */
  if (gtk_widget_has_focus (self->text) || self->selected >= 0)
    return FALSE;
  return gtk_widget_grab_focus (self->text);
}

static void
on_text_clicked (GtkGestureClick *gesture, int n_press, double x, double y, TagdEntry *self)
{
  /* A click on the entry's empty area focuses the text, as in GtkEntry. */
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (self), x, y, GTK_PICK_DEFAULT);
  if (picked == GTK_WIDGET (self))
    {
      gtk_widget_grab_focus (self->text);
      gtk_editable_set_position (GTK_EDITABLE (self->text), -1);
    }
}

/* ---- GObject */

static gboolean
open_idle_cb (gpointer data)
{
  TagdEntry *self = data;
  self->open_source = 0;
  send_open (self);
  return G_SOURCE_REMOVE;
}

static void
tagd_entry_constructed (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  G_OBJECT_CLASS (tagd_entry_parent_class)->constructed (object);
  self->field = _tagd_connection_register (self->conn, "entry", self, &session_vtable);
  /* Open once the construct properties (tags, options) are all set. */
  self->open_source = g_idle_add (open_idle_cb, self);
}

static void
tagd_entry_dispose (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);

  g_clear_handle_id (&self->open_source, g_source_remove);
  if (self->field != NULL)
    {
      _tagd_connection_call (self->conn, "field/close", field_params (self), on_ignore_reply, g_object_ref (self->conn));
      _tagd_connection_unregister (self->conn, self->field);
      g_clear_pointer (&self->field, g_free);
    }
  if (self->buffer != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->buffer, self);
      g_clear_object (&self->buffer);
    }
  if (self->chips != NULL)
    {
      for (guint i = 0; i < self->chips->len; i++)
        gtk_widget_unparent (self->chips->pdata[i]);
      g_clear_pointer (&self->chips, g_ptr_array_unref);
    }
  self->text = NULL;
  g_clear_pointer (&self->text_box, gtk_widget_unparent);
  G_OBJECT_CLASS (tagd_entry_parent_class)->dispose (object);
}

static void
tagd_entry_finalize (GObject *object)
{
  TagdEntry *self = TAGD_ENTRY (object);
  g_strfreev (self->tags);
  g_strfreev (self->separators);
  g_free (self->prompt);
  g_free (self->announcement);
  g_string_free (self->mirror, TRUE);
  G_OBJECT_CLASS (tagd_entry_parent_class)->finalize (object);
}

static void
tagd_entry_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TagdEntry *self = TAGD_ENTRY (object);
  switch (prop_id)
    {
    case PROP_TAGS: g_value_set_boxed (value, self->tags); break;
    case PROP_PROMPT: g_value_set_string (value, self->prompt); break;
    case PROP_SEPARATORS: g_value_set_boxed (value, self->separators); break;
    case PROP_MAX_TAGS: g_value_set_int (value, self->max_tags); break;
    case PROP_MAX_TAG_LENGTH: g_value_set_int (value, self->max_tag_length); break;
    case PROP_CASE_SENSITIVE: g_value_set_boolean (value, self->case_sensitive); break;
    case PROP_TRANSFORM: g_value_set_enum (value, self->transform); break;
    case PROP_ANNOUNCEMENT: g_value_set_string (value, self->announcement); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_entry_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TagdEntry *self = TAGD_ENTRY (object);
  switch (prop_id)
    {
    case PROP_TAGS: tagd_entry_set_tags (self, g_value_get_boxed (value)); break;
    case PROP_PROMPT: tagd_entry_set_prompt (self, g_value_get_string (value)); break;
    case PROP_SEPARATORS: tagd_entry_set_separators (self, g_value_get_boxed (value)); break;
    case PROP_MAX_TAGS: tagd_entry_set_max_tags (self, g_value_get_int (value)); break;
    case PROP_MAX_TAG_LENGTH: tagd_entry_set_max_tag_length (self, g_value_get_int (value)); break;
    case PROP_CASE_SENSITIVE: tagd_entry_set_case_sensitive (self, g_value_get_boolean (value)); break;
    case PROP_TRANSFORM: tagd_entry_set_transform (self, g_value_get_enum (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tagd_entry_class_init (TagdEntryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = tagd_entry_constructed;
  object_class->dispose = tagd_entry_dispose;
  object_class->finalize = tagd_entry_finalize;
  object_class->get_property = tagd_entry_get_property;
  object_class->set_property = tagd_entry_set_property;
  widget_class->measure = tagd_entry_measure;
  widget_class->size_allocate = tagd_entry_size_allocate;
  widget_class->get_request_mode = tagd_entry_get_request_mode;
  widget_class->grab_focus = tagd_entry_grab_focus;
  widget_class->focus = tagd_entry_focus;

  /**
   * TagdEntry:tags: (type GStrv)
   *
   * The tags, in order, as tagd keeps them. Setting it replaces every tag (tagd applies its
   * rules: duplicates and over-long tags are dropped).
   */
  properties[PROP_TAGS] =
    g_param_spec_boxed ("tags", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:prompt:
   *
   * The placeholder shown while the text is empty, also the text's accessible name.
   */
  properties[PROP_PROMPT] =
    g_param_spec_string ("prompt", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:separators: (type GStrv)
   *
   * One-character strings that commit the text (`"\n"` means newline). %NULL: `,` and newline.
   */
  properties[PROP_SEPARATORS] =
    g_param_spec_boxed ("separators", NULL, NULL, G_TYPE_STRV,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:max-tags:
   *
   * The most tags the entry takes, or -1 for tagd's own limit.
   */
  properties[PROP_MAX_TAGS] =
    g_param_spec_int ("max-tags", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:max-tag-length:
   *
   * The longest tag in characters, or -1 for tagd's own limit.
   */
  properties[PROP_MAX_TAG_LENGTH] =
    g_param_spec_int ("max-tag-length", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:case-sensitive:
   *
   * Whether tags differing only in case are different tags.
   */
  properties[PROP_CASE_SENSITIVE] =
    g_param_spec_boolean ("case-sensitive", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:transform:
   *
   * How new tags are rewritten.
   */
  properties[PROP_TRANSFORM] =
    g_param_spec_enum ("transform", NULL, NULL, TAGD_TYPE_TRANSFORM, TAGD_TRANSFORM_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * TagdEntry:announcement:
   *
   * The last sentence tagd gave for assistive technology ("Added red."). It is also set as
   * the accessible description of the entry's text.
   */
  properties[PROP_ANNOUNCEMENT] =
    g_param_spec_string ("announcement", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TagdEntry::tags-changed:
   * @self: the entry
   *
   * Emitted when the tags change, whoever changed them.
   */
  signals[SIGNAL_TAGS_CHANGED] =
    g_signal_new ("tags-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * TagdEntry::tag-dropped:
   * @self: the entry
   * @text: the candidate that did not become a tag
   * @reason: `empty`, `duplicate`, `tooLong` or `tooMany`
   * @index: for `duplicate`, the index of the equal tag (its chip flashes), else -1
   *
   * Emitted for each candidate tagd refused.
   */
  signals[SIGNAL_TAG_DROPPED] =
    g_signal_new ("tag-dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT);

  gtk_widget_class_set_css_name (widget_class, "entry");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tagd_entry_init (TagdEntry *self)
{
  GtkEventController *keys, *focus;
  GtkGesture *click;

  _tagd_style_ensure ();
  self->conn = tagd_connection_get_default ();
  self->chips = g_ptr_array_new_with_free_func (g_object_unref);
  self->tags = g_new0 (char *, 1);
  self->mirror = g_string_new ("");
  self->max_tags = -1;
  self->max_tag_length = -1;
  self->selected = -1;
  self->layout_width = -1;
  self->layout_height = -1;

  gtk_widget_add_css_class (GTK_WIDGET (self), "tagd-entry");
  /* GTK 4.8 leaves a bare GtkText out of the AT-SPI tree: a TagdText (role text box, the
   * GtkText as its editable delegate) stands for it there. */
  self->text_box = g_object_new (TAGD_TYPE_TEXT, NULL);
  gtk_widget_set_parent (self->text_box, GTK_WIDGET (self));
  self->text = TAGD_TEXT (self->text_box)->text;
  self->buffer = g_object_ref (gtk_text_get_buffer (GTK_TEXT (self->text)));
  g_signal_connect (self->buffer, "inserted-text", G_CALLBACK (on_inserted_text), self);
  g_signal_connect (self->buffer, "deleted-text", G_CALLBACK (on_deleted_text), self);

  keys = gtk_event_controller_key_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "enter", G_CALLBACK (on_text_focus_enter), self);
  gtk_widget_add_controller (self->text, focus);

  click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (on_text_clicked), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));

  tagd_entry_set_prompt (self, "Add a tag");
}

/* ---- public API */

/**
 * tagd_entry_new:
 *
 * Returns: a new tag entry, with no tags
 */
GtkWidget *
tagd_entry_new (void)
{
  return g_object_new (TAGD_TYPE_ENTRY, NULL);
}

/**
 * tagd_entry_get_tags:
 * @self: the entry
 *
 * Returns: (transfer none) (array zero-terminated=1): the tags
 */
const char * const *
tagd_entry_get_tags (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->tags;
}

/**
 * tagd_entry_set_tags:
 * @self: the entry
 * @tags: (array zero-terminated=1) (nullable): the new tags
 *
 * Replaces every tag. tagd applies its rules, so [property@Tagd.Entry:tags] may end up shorter.
 */
void
tagd_entry_set_tags (TagdEntry *self, const char * const *tags)
{
  const char *empty[] = { NULL };
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (tags == NULL)
    tags = empty;
  if (strv_equal (self->tags, (char **) tags))
    return;
  set_tags_internal (self, g_strdupv ((char **) tags));
  reopen (self, TRUE);
}

/**
 * tagd_entry_add_tags:
 * @self: the entry
 * @tags: (array zero-terminated=1): candidates, each one tag (not split at separators)
 *
 * Adds tags from outside the text, such as a clicked suggestion, under the entry's rules.
 */
void
tagd_entry_add_tags (TagdEntry *self, const char * const *tags)
{
  GVariantBuilder b;
  g_return_if_fail (TAGD_IS_ENTRY (self));
  g_return_if_fail (tags != NULL);
  g_variant_builder_init (&b, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&b, "{sv}", "field", g_variant_new_string (self->field));
  g_variant_builder_add (&b, "{sv}", "tags", g_variant_new_strv (tags, -1));
  call_state (self, "field/addTags", g_variant_builder_end (&b), TRUE);
}

/**
 * tagd_entry_remove_tag:
 * @self: the entry
 * @tag: the tag to remove (compared under the entry's rules)
 */
void
tagd_entry_remove_tag (TagdEntry *self, const char *tag)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  g_return_if_fail (tag != NULL);
  for (guint i = 0; i < self->chips->len; i++)
    {
      TagdChip *chip = self->chips->pdata[i];
      if (g_str_equal (chip->tag, tag))
        {
          if (!chip->removing)
            remove_chip (self, chip);
          return;
        }
    }
  call_state (self, "field/removeTag",
              g_variant_new_parsed ("{'field': <%s>, 'tag': <%s>}", self->field, tag), FALSE);
}

/**
 * tagd_entry_get_draft:
 * @self: the entry
 *
 * Returns: the text in the box
 */
const char *
tagd_entry_get_draft (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return gtk_entry_buffer_get_text (self->buffer);
}

const char *
tagd_entry_get_prompt (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->prompt;
}

void
tagd_entry_set_prompt (TagdEntry *self, const char *prompt)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (g_strcmp0 (self->prompt, prompt) == 0)
    return;
  g_free (self->prompt);
  self->prompt = g_strdup (prompt);
  gtk_text_set_placeholder_text (GTK_TEXT (self->text), prompt);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->text_box),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, prompt ? prompt : "", -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, prompt ? prompt : "", -1);
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROMPT]);
}

/**
 * tagd_entry_get_separators:
 * @self: the entry
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the separators, or %NULL for tagd's default
 */
const char * const *
tagd_entry_get_separators (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return (const char * const *) self->separators;
}

/**
 * tagd_entry_set_separators:
 * @self: the entry
 * @separators: (array zero-terminated=1) (nullable): one-character strings, or %NULL for `,` and newline
 */
void
tagd_entry_set_separators (TagdEntry *self, const char * const *separators)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (separators == NULL && self->separators == NULL)
    return;
  if (separators != NULL && self->separators != NULL && strv_equal (self->separators, (char **) separators))
    return;
  g_strfreev (self->separators);
  self->separators = g_strdupv ((char **) separators);
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEPARATORS]);
}

int
tagd_entry_get_max_tags (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->max_tags;
}

void
tagd_entry_set_max_tags (TagdEntry *self, int max_tags)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->max_tags == max_tags)
    return;
  self->max_tags = max_tags;
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TAGS]);
}

int
tagd_entry_get_max_tag_length (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), -1);
  return self->max_tag_length;
}

void
tagd_entry_set_max_tag_length (TagdEntry *self, int max_tag_length)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (max_tag_length == 0)
    max_tag_length = -1;
  if (self->max_tag_length == max_tag_length)
    return;
  self->max_tag_length = max_tag_length;
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAX_TAG_LENGTH]);
}

gboolean
tagd_entry_get_case_sensitive (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), FALSE);
  return self->case_sensitive;
}

void
tagd_entry_set_case_sensitive (TagdEntry *self, gboolean case_sensitive)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  case_sensitive = !!case_sensitive;
  if (self->case_sensitive == case_sensitive)
    return;
  self->case_sensitive = case_sensitive;
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CASE_SENSITIVE]);
}

TagdTransform
tagd_entry_get_transform (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), TAGD_TRANSFORM_NONE);
  return self->transform;
}

void
tagd_entry_set_transform (TagdEntry *self, TagdTransform transform)
{
  g_return_if_fail (TAGD_IS_ENTRY (self));
  if (self->transform == transform)
    return;
  self->transform = transform;
  reopen (self, TRUE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRANSFORM]);
}

/**
 * tagd_entry_get_announcement:
 * @self: the entry
 *
 * Returns: (nullable): the last sentence tagd gave for assistive technology
 */
const char *
tagd_entry_get_announcement (TagdEntry *self)
{
  g_return_val_if_fail (TAGD_IS_ENTRY (self), NULL);
  return self->announcement;
}
