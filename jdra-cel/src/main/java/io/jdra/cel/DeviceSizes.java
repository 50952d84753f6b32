package io.jdra.cel;

import java.util.List;
import java.util.Map;

/**
 * Maximum sizes reachable through the {@code device} variable, from the DRA API limits: at most 32
 * domains and 32 ids per device, domains of at most 63 characters, ids of 32, driver names of 63,
 * attribute values of 64 characters or list elements. Upstream's sizeEstimator in
 * dynamic-resource-allocation/cel walks the same paths.
 */
final class DeviceSizes {
  static final long MAX_ATTRIBUTES_AND_CAPACITIES = 32;
  static final long MAX_DOMAIN_LENGTH = 63;
  static final long MAX_ID_LENGTH = 32;
  static final long MAX_DRIVER_LENGTH = 63;
  static final long MAX_ATTRIBUTE_VALUE = 64; // max(value length 64, list values 48)

  /** A node of the declared device type: its max size, key, element type and fields. */
  private record Node(long maxElements, Node key, Node elem, Map<String, Node> fields) {}

  private static final Node ATTRIBUTE = new Node(MAX_ATTRIBUTE_VALUE, null, null, Map.of());
  private static final Node DOMAIN = new Node(MAX_DOMAIN_LENGTH, null, null, Map.of());
  private static final Node ID = new Node(MAX_ID_LENGTH, null, null, Map.of());
  private static final Node QUANTITY = new Node(0, null, null, Map.of());
  private static final Node INNER_ATTRIBUTES =
      new Node(MAX_ATTRIBUTES_AND_CAPACITIES, ID, ATTRIBUTE, Map.of());
  private static final Node INNER_CAPACITY =
      new Node(MAX_ATTRIBUTES_AND_CAPACITIES, ID, QUANTITY, Map.of());
  private static final Node DEVICE =
      new Node(
          0,
          null,
          null,
          Map.of(
              "driver", new Node(MAX_DRIVER_LENGTH, null, null, Map.of()),
              "allowMultipleAllocations", new Node(1, null, null, Map.of()),
              "attributes",
                  new Node(MAX_ATTRIBUTES_AND_CAPACITIES, DOMAIN, INNER_ATTRIBUTES, Map.of()),
              "capacity",
                  new Node(MAX_ATTRIBUTES_AND_CAPACITIES, DOMAIN, INNER_CAPACITY, Map.of())));

  private DeviceSizes() {}

  /** The size range of the value at {@code path} (rooted at "device"), or null if unknown. */
  static Cost estimate(List<String> path) {
    if (path.isEmpty() || !path.get(0).equals("device")) {
      return null;
    }
    Node node = DEVICE;
    for (String step : path.subList(1, path.size())) {
      switch (step) {
        case "@items", "@values" -> node = node.elem();
        case "@keys" -> node = node.key();
        default -> {
          Node field = node.fields().get(step);
          if (field != null) {
            node = field;
          } else if (node.elem() == ATTRIBUTE) {
            node = ATTRIBUTE; // attribute maps: every id has the same bound
          } else {
            return null;
          }
        }
      }
      if (node == null) {
        return null;
      }
    }
    return new Cost(0, node.maxElements());
  }
}
