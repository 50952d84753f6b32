package io.jdra.exampledriver.profiles;

import java.util.Map;

/**
 * The GPU profile's opaque configuration, {@code gpu.resource.example.com/v1alpha1} kind {@code
 * GpuConfig} (upstream api/example.com/resource/gpu/v1alpha1). Immutable; {@link #normalize()}
 * fills implied defaults, {@link #validate()} checks the result.
 *
 * @param sharing how the GPU is shared among the containers that get it; null before normalizing
 */
public record GpuConfig(Sharing sharing) {
  public static final String GROUP = "gpu.resource.example.com";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "GpuConfig";

  public static final String TIME_SLICING = "TimeSlicing";
  public static final String SPACE_PARTITIONING = "SpacePartitioning";

  /** The configuration used when a claim has none: time slicing with the default interval. */
  public static GpuConfig defaults() {
    return new GpuConfig(new Sharing(TIME_SLICING, new TimeSlicingConfig("Default"), null));
  }

  /**
   * @param strategy {@code TimeSlicing} or {@code SpacePartitioning}
   * @param timeSlicingConfig for time slicing
   * @param spacePartitioningConfig for space partitioning
   */
  public record Sharing(
      String strategy,
      TimeSlicingConfig timeSlicingConfig,
      SpacePartitioningConfig spacePartitioningConfig) {}

  /**
   * @param interval {@code Default}, {@code Short}, {@code Medium} or {@code Long}
   */
  public record TimeSlicingConfig(String interval) {}

  /**
   * @param partitionCount how many partitions, not negative
   */
  public record SpacePartitioningConfig(int partitionCount) {}

  /** Implied defaults: time slicing when no sharing is set, and each strategy's default config. */
  public GpuConfig normalize() {
    Sharing s = sharing == null ? new Sharing(TIME_SLICING, null, null) : sharing;
    if (TIME_SLICING.equals(s.strategy()) && s.timeSlicingConfig() == null) {
      s = new Sharing(s.strategy(), new TimeSlicingConfig("Default"), s.spacePartitioningConfig());
    }
    if (SPACE_PARTITIONING.equals(s.strategy()) && s.spacePartitioningConfig() == null) {
      s = new Sharing(s.strategy(), s.timeSlicingConfig(), new SpacePartitioningConfig(1));
    }
    return new GpuConfig(s);
  }

  /**
   * Checks the config as upstream's GpuConfig.Validate plus the strategy/config pairing its getters
   * enforce.
   *
   * @throws IllegalArgumentException naming the bad field and value
   */
  public void validate() {
    if (sharing == null) {
      throw new IllegalArgumentException("no sharing strategy set");
    }
    String strategy = sharing.strategy();
    if (TIME_SLICING.equals(strategy)) {
      if (sharing.spacePartitioningConfig() != null) {
        throw new IllegalArgumentException(
            "cannot use SpacePartitioningConfig with the 'TimeSlicing' strategy");
      }
      String interval =
          sharing.timeSlicingConfig() == null ? "" : sharing.timeSlicingConfig().interval();
      switch (interval == null ? "" : interval) {
        case "Default", "Short", "Medium", "Long" -> {}
        default -> throw new IllegalArgumentException("unknown time-slice interval: " + interval);
      }
    } else if (SPACE_PARTITIONING.equals(strategy)) {
      if (sharing.timeSlicingConfig() != null) {
        throw new IllegalArgumentException(
            "cannot use TimeSlicingConfig with the 'SpacePartitioning' strategy");
      }
      int count =
          sharing.spacePartitioningConfig() == null
              ? 0
              : sharing.spacePartitioningConfig().partitionCount();
      if (count < 0) {
        throw new IllegalArgumentException("invalid partition count: " + count);
      }
    } else {
      throw new IllegalArgumentException("unknown GPU sharing strategy: " + strategy);
    }
  }

  /**
   * Decodes the JSON object of an opaque config. Unknown fields are ignored, as upstream's decoder
   * does; wrong types are errors.
   *
   * @throws IllegalArgumentException with the field path of what is wrong
   */
  static GpuConfig decode(Map<String, Object> json) {
    Object sharing = json.get("sharing");
    if (sharing == null) {
      return new GpuConfig(null);
    }
    Map<String, Object> s = Json.object(sharing, "sharing");
    Object ts = s.get("timeSlicingConfig");
    Object sp = s.get("spacePartitioningConfig");
    return new GpuConfig(
        new Sharing(
            Json.string(s.get("strategy"), "sharing.strategy"),
            ts == null
                ? null
                : new TimeSlicingConfig(
                    Json.string(
                        Json.object(ts, "sharing.timeSlicingConfig").get("interval"),
                        "sharing.timeSlicingConfig.interval")),
            sp == null
                ? null
                : new SpacePartitioningConfig(
                    Json.integer(
                        Json.object(sp, "sharing.spacePartitioningConfig").get("partitionCount"),
                        "sharing.spacePartitioningConfig.partitionCount"))));
  }
}
