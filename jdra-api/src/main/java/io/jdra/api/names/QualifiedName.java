package io.jdra.api.names;

import java.util.Map;
import java.util.Objects;

/**
 * A DRA attribute or capacity name: {@code domain/id}, or just {@code id}. An unqualified id
 * belongs to the domain of the device's driver, so {@code model} on a device of driver {@code
 * gpu.example.com} is {@code gpu.example.com/model} (upstream resolves names this way in CEL's
 * {@code device.attributes[domain]} maps and in the allocator's {@code matchAttribute} lookup).
 *
 * <p>This type only splits and joins names; whether the domain is a DNS subdomain and the id a C
 * identifier is checked by validation. The domain is everything before the first {@code /}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param domain the domain, {@code ""} when unqualified
 * @param id the identifier within the domain, never empty
 */
public record QualifiedName(String domain, String id) {

  /**
   * @throws IllegalArgumentException when {@code id} is empty
   * @throws NullPointerException when either part is null
   */
  public QualifiedName {
    Objects.requireNonNull(domain, "domain");
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new IllegalArgumentException(
          domain.isEmpty()
              ? "qualified name \"\": must not be empty"
              : "qualified name " + quote(domain + "/") + ": the name after the domain is empty");
    }
  }

  /**
   * Splits {@code domain/id} at the first {@code /}; a name without {@code /} is unqualified
   * (domain {@code ""}).
   *
   * @throws IllegalArgumentException when the name, its domain or its id is empty, naming the input
   */
  public static QualifiedName parse(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("qualified name \"\": must not be empty");
    }
    int slash = name.indexOf('/');
    if (slash < 0) {
      return new QualifiedName("", name);
    }
    if (slash == 0) {
      throw new IllegalArgumentException(
          "qualified name " + quote(name) + ": the domain before \"/\" is empty");
    }
    if (slash == name.length() - 1) {
      throw new IllegalArgumentException(
          "qualified name " + quote(name) + ": the name after the domain is empty");
    }
    return new QualifiedName(name.substring(0, slash), name.substring(slash + 1));
  }

  /** Whether the name carries its own domain. */
  public boolean isQualified() {
    return !domain.isEmpty();
  }

  /**
   * This name with the driver's domain filled in when unqualified; qualified names are returned
   * unchanged.
   *
   * @throws IllegalArgumentException when the name is unqualified and {@code driver} is empty
   */
  public QualifiedName resolve(String driver) {
    if (isQualified()) {
      return this;
    }
    Objects.requireNonNull(driver, "driver");
    if (driver.isEmpty()) {
      throw new IllegalArgumentException(
          "cannot resolve " + quote(id) + ": the DRA driver name is empty");
    }
    return new QualifiedName(driver, id);
  }

  /**
   * Looks this name up in a device's attribute or capacity map (keyed by names as written in the
   * ResourceSlice) as the upstream allocator does: first by the fully qualified name, then, when
   * the domain is the device's driver, by the bare id.
   *
   * @return the value, or null when the device does not have it
   */
  public <V> V lookup(Map<String, V> byName, String driver) {
    QualifiedName full = resolve(driver);
    V v = byName.get(full.toString());
    if (v == null && full.domain.equals(driver)) {
      v = byName.get(full.id);
    }
    return v;
  }

  /** {@code domain/id}, or {@code id} when unqualified. */
  @Override
  public String toString() {
    return domain.isEmpty() ? id : domain + "/" + id;
  }

  static String quote(String s) {
    return '"' + s + '"';
  }
}
