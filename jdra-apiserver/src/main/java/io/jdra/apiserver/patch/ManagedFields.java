package io.jdra.apiserver.patch;

import io.jdra.api.validation.GoFormat;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Decoding and encoding of metadata.managedFields, keyed by manager identity as upstream. */
final class ManagedFields {
  static final String APPLY = "Apply";
  static final String UPDATE = "Update";
  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private ManagedFields() {}

  /**
   * Who manages fields: Apply managers are one identity whatever apiVersion they last used, Update
   * managers one per apiVersion (upstream's BuildManagerIdentifier).
   */
  record Id(String manager, String operation, String apiVersion, String subresource) {
    static Id apply(String manager, String subresource) {
      return new Id(manager, APPLY, "", subresource);
    }

    static Id update(String manager, String apiVersion, String subresource) {
      return new Id(manager, UPDATE, apiVersion, subresource);
    }

    /** The identifier upstream sorts conflicts by (JSON of the entry without time/fields). */
    String key() {
      ObjectNode o = Json.object();
      o.put("manager", manager);
      o.put("operation", operation);
      if (!apiVersion.isEmpty()) {
        o.put("apiVersion", apiVersion);
      }
      if (!subresource.isEmpty()) {
        o.put("subresource", subresource);
      }
      return Json.write(o);
    }

    /** As upstream's printManager in conflict messages. */
    String display() {
      String s = GoFormat.quote(manager);
      if (!subresource.isEmpty()) {
        s += " with subresource " + GoFormat.quote(subresource);
      }
      if (UPDATE.equals(operation)) {
        s += " using " + apiVersion;
      }
      return s;
    }
  }

  /** One manager's entry. apiVersion is the version its fields were last recorded at. */
  static final class Entry {
    final Id id;
    String apiVersion;
    String time;
    FieldSet set;

    /**
     * The stored FieldsV1 {@link #encodedSet} was decoded from, which the server encoded itself (so
     * it is what encoding that set gives); null when not known.
     */
    final JsonNode encoded;

    final FieldSet encodedSet;

    Entry(Id id, String apiVersion, String time, FieldSet set) {
      this(id, apiVersion, time, set, null);
    }

    Entry(Id id, String apiVersion, String time, FieldSet set, JsonNode encoded) {
      this.id = id;
      this.apiVersion = apiVersion;
      this.time = time;
      this.set = set;
      this.encoded = encoded;
      this.encodedSet = encoded == null ? null : set;
    }

    /** Its FieldsV1: the stored one while the set is the one decoded from it, else encoded. */
    JsonNode fieldsV1() {
      if (encoded != null && set == encodedSet) {
        assert encoded.equals(set.encode()) : "stored FieldsV1 not in the server's encoding";
        return encoded; // never changed: stored trees are read only
      }
      return set.encode();
    }
  }

  static String time(Instant now) {
    // Writes come many per second: format each second once.
    long second = now.getEpochSecond();
    FormattedSecond last = lastTime;
    if (last == null || last.second != second) {
      last = new FormattedSecond(second, RFC3339.format(now.truncatedTo(ChronoUnit.SECONDS)));
      lastTime = last;
    }
    return last.text;
  }

  private record FormattedSecond(long second, String text) {}

  private static volatile FormattedSecond lastTime;

  /** Decodes the entries; IllegalArgumentException when they are malformed. */
  static Map<Id, Entry> decode(JsonNode managedFields) {
    return decode(managedFields, false);
  }

  /**
   * Decodes the entries; with {@code stored} (a stored object's entries, which the server encoded)
   * each entry keeps its FieldsV1 to write again while its set is unchanged, instead of encoding
   * the set anew.
   */
  static Map<Id, Entry> decode(JsonNode managedFields, boolean stored) {
    Map<Id, Entry> out = new LinkedHashMap<>();
    if (managedFields == null || managedFields.isNull()) {
      return out;
    }
    if (!managedFields.isArray()) {
      throw new IllegalArgumentException("managedFields is not a list");
    }
    for (JsonNode e : managedFields) {
      if (!e.isObject()) {
        throw new IllegalArgumentException("managedFields entry is not an object");
      }
      String type = text(e, "fieldsType");
      if (!"FieldsV1".equals(type)) {
        throw new IllegalArgumentException("unsupported fieldsType: " + type);
      }
      String op = text(e, "operation");
      if (!APPLY.equals(op) && !UPDATE.equals(op)) {
        throw new IllegalArgumentException("unknown operation: " + op);
      }
      String version = text(e, "apiVersion");
      Id id =
          APPLY.equals(op)
              ? Id.apply(text(e, "manager"), text(e, "subresource"))
              : Id.update(text(e, "manager"), version, text(e, "subresource"));
      JsonNode fieldsV1 = e.get("fieldsV1");
      FieldSet set = FieldSet.decode(fieldsV1);
      String time = e.hasNonNull("time") ? text(e, "time") : null;
      Entry prev = out.get(id);
      if (prev != null) {
        prev.set = prev.set.union(set);
      } else {
        boolean keep = stored && fieldsV1 instanceof ObjectNode;
        out.put(id, new Entry(id, version, time, set, keep ? fieldsV1 : null));
      }
    }
    return out;
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return "";
    }
    if (!v.isString()) {
      throw new IllegalArgumentException(field + " is not a string");
    }
    return v.stringValue();
  }

  /** Upstream's order of the entries; built once (a comparator chain is five lambdas). */
  private static final Comparator<Entry> ENTRY_ORDER =
      Comparator.comparing((Entry e) -> e.id.operation)
          .thenComparing(e -> e.time == null ? "" : e.time)
          .thenComparing(e -> e.id.manager)
          .thenComparing(e -> e.apiVersion)
          .thenComparing(e -> e.id.subresource);

  /** Sets metadata.managedFields of obj (removes it when there are no entries). */
  static void encodeInto(ObjectNode obj, Map<Id, Entry> managers) {
    List<Entry> entries = new ArrayList<>();
    for (Entry e : managers.values()) {
      if (!e.set.isEmpty()) {
        entries.add(e);
      }
    }
    entries.sort(ENTRY_ORDER);
    JsonNode meta = obj.get("metadata");
    ObjectNode metadata;
    if (meta instanceof ObjectNode m) {
      metadata = m;
    } else {
      metadata = Json.object();
      obj.set("metadata", metadata);
    }
    if (entries.isEmpty()) {
      metadata.remove("managedFields");
      return;
    }
    ArrayNode list = Json.array();
    for (Entry e : entries) {
      ObjectNode o = Json.object();
      o.put("manager", e.id.manager);
      o.put("operation", e.id.operation);
      o.put("apiVersion", e.apiVersion);
      if (e.time != null) {
        o.put("time", e.time);
      }
      o.put("fieldsType", "FieldsV1");
      o.set("fieldsV1", e.fieldsV1());
      if (!e.id.subresource.isEmpty()) {
        o.put("subresource", e.id.subresource);
      }
      list.add(o);
    }
    metadata.set("managedFields", list);
  }
}
