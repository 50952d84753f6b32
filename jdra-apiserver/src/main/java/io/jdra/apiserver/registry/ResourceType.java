package io.jdra.apiserver.registry;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Describes one served resource: where it lives in the API, how it is named and which subresources,
 * table columns and selectable fields it has. Immutable.
 *
 * @param group API group, {@code ""} for the core group
 * @param storageVersion the version objects are stored in
 * @param versions all served versions, preferred first
 * @param kind the kind, e.g. {@code ResourceClaim}
 * @param plural the URL name, e.g. {@code resourceclaims}
 * @param singular the singular name
 * @param shortNames kubectl short names
 * @param namespaced whether objects live in a namespace
 * @param subresources served subresources, e.g. {@code status}
 * @param categories discovery categories, e.g. {@code all}
 * @param columns extra table columns for {@code kubectl get} after NAME
 * @param selectableFields field selector name to the dotted JSON path it reads
 * @param rules what the kind does beyond the generic registry
 * @param storageGroup the group whose storage holds the objects: {@code group} itself, or another
 *     group's as upstream stores events.k8s.io Events with the core ones
 * @param standardColumns whether tables get NAME first and AGE last around {@code columns}; false
 *     where upstream's printer defines every column (Events)
 */
public record ResourceType(
    String group,
    String storageVersion,
    List<String> versions,
    String kind,
    String plural,
    String singular,
    List<String> shortNames,
    boolean namespaced,
    Set<String> subresources,
    List<String> categories,
    List<Column> columns,
    Map<String, String> selectableFields,
    KindRules rules,
    String storageGroup,
    boolean standardColumns) {

  /**
   * A table column.
   *
   * @param name header
   * @param type OpenAPI type ("string", "integer", "date")
   * @param priority 0 always shown, 1 only with {@code -o wide}
   * @param path dotted JSON path of the value (unused when {@code printer} is set)
   * @param printer computes the value from the object, as upstream's printers; null for a path
   * @param since whether the value is a timestamp shown as the time since then ("5m"), as AGE
   */
  public record Column(
      String name, String type, int priority, String path, Printer printer, boolean since) {
    /** A column that shows the value at a dotted JSON path. */
    public Column(String name, String type, int priority, String path) {
      this(name, type, priority, path, null, false);
    }

    /** A column computed by a printer. */
    public Column(String name, String type, int priority, String path, Printer printer) {
      this(name, type, priority, path, printer, false);
    }

    /** Computes a cell; returns null for none. Stateless. */
    @FunctionalInterface
    public interface Printer {
      String print(tools.jackson.databind.JsonNode object);
    }
  }

  public ResourceType {
    Objects.requireNonNull(group);
    versions = List.copyOf(versions);
    shortNames = List.copyOf(shortNames);
    subresources = Set.copyOf(subresources);
    categories = List.copyOf(categories);
    columns = List.copyOf(columns);
    selectableFields = Map.copyOf(selectableFields);
    Objects.requireNonNull(rules, "rules");
    Objects.requireNonNull(storageGroup, "storageGroup");
  }

  /** {@code plural.group}, or just the plural for the core group, as in upstream messages. */
  public String qualifiedResource() {
    return group.isEmpty() ? plural : plural + "." + group;
  }

  /** {@code group/version}, or just the version for the core group. */
  public String apiVersion(String version) {
    return group.isEmpty() ? version : group + "/" + version;
  }

  /** The stored apiVersion (of {@code storageGroup}). */
  public String storageApiVersion() {
    return storageGroup.isEmpty() ? storageVersion : storageGroup + "/" + storageVersion;
  }

  /** Whether the objects are stored in another group's form and storage. */
  public boolean storedElsewhere() {
    return !storageGroup.equals(group);
  }

  public boolean hasStatus() {
    return subresources.contains("status");
  }

  /** A key identifying the served resource independent of version: {@code group/plural}. */
  public String key() {
    return group + "/" + plural;
  }

  /** The key of the storage holding the objects: {@code storageGroup/plural}. */
  public String storageKey() {
    return storageGroup + "/" + plural;
  }
}
