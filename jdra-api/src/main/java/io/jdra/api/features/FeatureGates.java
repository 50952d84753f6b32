package io.jdra.api.features;

import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An immutable set of DRA feature gate values: the Kubernetes {@value Feature#KUBERNETES_VERSION}
 * defaults plus explicit settings, as given to {@code --feature-gates}.
 *
 * <p>Unlike upstream, gates that Kubernetes {@value Feature#KUBERNETES_VERSION} locks to their
 * default (e.g. {@code DRAAdminAccess}) may still be set explicitly, so that the behaviour of older
 * releases can be reproduced.
 *
 * <p>Instances are immutable and thread-safe; {@link #with} returns a new instance.
 */
public final class FeatureGates {
  /** Upstream's pseudo-gate that sets every ALPHA gate not set explicitly. */
  public static final String ALL_ALPHA = "AllAlpha";

  /** Upstream's pseudo-gate that sets every BETA gate not set explicitly. */
  public static final String ALL_BETA = "AllBeta";

  private static final FeatureGates DEFAULTS = new FeatureGates(new EnumMap<>(Feature.class));

  /** Explicitly set values only; a gate absent here has its default. */
  private final EnumMap<Feature, Boolean> explicit;

  private FeatureGates(EnumMap<Feature, Boolean> explicit) {
    this.explicit = explicit;
  }

  /** All gates at their Kubernetes {@value Feature#KUBERNETES_VERSION} defaults. */
  public static FeatureGates defaults() {
    return DEFAULTS;
  }

  /**
   * Parses a {@code --feature-gates} value such as {@code "DRAAdminAccess=false,
   * DRAListTypeAttributes=true"} on top of the defaults. Spaces around names and values and empty
   * entries are ignored; values are Go booleans ({@code 1 t T TRUE true True 0 f F FALSE false
   * False}). A later entry for the same gate wins. As upstream, {@code AllAlpha=true|false} and
   * {@code AllBeta=true|false} set every gate of that stage that is not named explicitly.
   *
   * @throws IllegalArgumentException naming the bad entry, with upstream's message: {@code
   *     unrecognized feature gate: X}, {@code missing bool value for X}, or {@code invalid value of
   *     X=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax}
   */
  public static FeatureGates parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    EnumMap<Feature, Boolean> values = new EnumMap<>(Feature.class);
    Map<Feature.Stage, Boolean> all = new EnumMap<>(Feature.Stage.class);
    for (String part : spec.split(",", -1)) {
      String entry = part.strip();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      String name = (eq < 0 ? entry : entry.substring(0, eq)).strip();
      if (eq < 0) {
        throw new IllegalArgumentException("missing bool value for " + name);
      }
      String raw = entry.substring(eq + 1).strip();
      Boolean value = parseGoBool(raw);
      if (value == null) {
        throw new IllegalArgumentException(
            "invalid value of "
                + name
                + "="
                + raw
                + ", err: strconv.ParseBool: parsing \""
                + raw
                + "\": invalid syntax");
      }
      if (ALL_ALPHA.equals(name) || ALL_BETA.equals(name)) {
        all.put(ALL_ALPHA.equals(name) ? Feature.Stage.ALPHA : Feature.Stage.BETA, value);
        continue;
      }
      Feature feature =
          Feature.byName(name)
              .orElseThrow(
                  () -> new IllegalArgumentException("unrecognized feature gate: " + name));
      values.put(feature, value);
    }
    // AllAlpha/AllBeta set every gate of that stage that is not set explicitly.
    for (Feature f : Feature.values()) {
      if (all.containsKey(f.stage())) {
        values.putIfAbsent(f, all.get(f.stage()));
      }
    }
    return new FeatureGates(values);
  }

  /** Go's {@code strconv.ParseBool}; null when the text is not a boolean. */
  private static Boolean parseGoBool(String s) {
    return switch (s) {
      case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
      case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
      default -> null;
    };
  }

  /** Whether the feature is on: its explicit value if set, else its default. */
  public boolean enabled(Feature feature) {
    Boolean v = explicit.get(Objects.requireNonNull(feature, "feature"));
    return v != null ? v : feature.defaultEnabled();
  }

  /** A copy with the feature explicitly set (also allowed for gates locked upstream). */
  public FeatureGates with(Feature feature, boolean on) {
    EnumMap<Feature, Boolean> copy = new EnumMap<>(Feature.class);
    copy.putAll(explicit);
    copy.put(Objects.requireNonNull(feature, "feature"), on);
    return new FeatureGates(copy);
  }

  /** The explicitly set gates, in enum order (unmodifiable). */
  public Map<Feature, Boolean> explicitSettings() {
    return Collections.unmodifiableMap(new EnumMap<>(explicit));
  }

  /** Every gate's effective value, keyed by upstream name, sorted by name (unmodifiable). */
  public Map<String, Boolean> asMap() {
    Map<String, Boolean> out = new LinkedHashMap<>();
    sortedFeatures().forEach(f -> out.put(f.gateName(), enabled(f)));
    return Collections.unmodifiableMap(out);
  }

  /**
   * The explicit settings as a {@code --feature-gates} value that {@link #parse} reads back to an
   * equal instance, e.g. {@code "DRAAdminAccess=false,DRAListTypeAttributes=true"} (sorted by name;
   * empty when nothing is set).
   */
  public String toSpec() {
    return sortedFeatures()
        .filter(explicit::containsKey)
        .map(f -> f.gateName() + "=" + explicit.get(f))
        .collect(Collectors.joining(","));
  }

  /**
   * One line per gate (and for {@code AllAlpha}, {@code AllBeta}), sorted, for {@code --help}, in
   * the form of upstream's known-features list, e.g. {@code DRAListTypeAttributes=true|false (ALPHA
   * - default=false)} or {@code DRAAdminAccess=true|false (GA - default=true, locked in Kubernetes
   * 1.36; jdra allows switching it off)}. Lines are joined with {@code \n}, without a trailing
   * newline. The text lists the defaults; it does not depend on this instance's settings.
   */
  public String describe() {
    Stream<String> pseudo =
        Stream.of(
            ALL_ALPHA + "=true|false (ALPHA - default=false)",
            ALL_BETA + "=true|false (BETA - default=false)");
    return Stream.concat(pseudo, sortedFeatures().map(FeatureGates::describe))
        .sorted()
        .collect(Collectors.joining("\n"));
  }

  private static String describe(Feature f) {
    StringBuilder sb = new StringBuilder();
    sb.append(f.gateName())
        .append("=true|false (")
        .append(f.stage().label())
        .append(" - default=")
        .append(f.defaultEnabled());
    if (f.lockedToDefault()) {
      sb.append(", locked in Kubernetes ")
          .append(Feature.KUBERNETES_VERSION)
          .append("; jdra allows switching it ")
          .append(f.defaultEnabled() ? "off" : "on");
    }
    return sb.append(')').toString();
  }

  private static Stream<Feature> sortedFeatures() {
    return Arrays.stream(Feature.values()).sorted(Comparator.comparing(Feature::gateName));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeatureGates other && asMap().equals(other.asMap());
  }

  @Override
  public int hashCode() {
    return asMap().hashCode();
  }

  /** The effective values of every gate, e.g. {@code FeatureGates{DRAAdminAccess=true, ...}}. */
  @Override
  public String toString() {
    return "FeatureGates" + asMap();
  }
}
