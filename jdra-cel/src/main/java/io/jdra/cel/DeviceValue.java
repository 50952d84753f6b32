package io.jdra.cel;

import dev.cel.common.exceptions.CelAttributeNotFoundException;
import dev.cel.common.types.CelType;
import dev.cel.common.values.StructValue;
import java.util.Optional;

/** The {@code device} variable: a struct of type {@code kubernetes.DRADevice}. */
final class DeviceValue extends StructValue<String, DeviceValue> {
  private final String driver;
  private final DomainsView attributes;
  private final DomainsView capacity;
  private final Boolean allowMultipleAllocations;

  DeviceValue(String driver, DomainsView attributes, DomainsView capacity, boolean allowMultiple) {
    this.driver = driver;
    this.attributes = attributes;
    this.capacity = capacity;
    this.allowMultipleAllocations = allowMultiple;
  }

  @Override
  public Object select(String field) {
    Object v = field(field);
    if (v == null) {
      throw CelAttributeNotFoundException.forFieldResolution(field);
    }
    return v;
  }

  @Override
  public Optional<?> find(String field) {
    return Optional.ofNullable(field(field));
  }

  private Object field(String field) {
    return switch (field) {
      case "driver" -> driver;
      case "attributes" -> attributes;
      case "capacity" -> capacity;
      case "allowMultipleAllocations" -> allowMultipleAllocations;
      default -> null;
    };
  }

  @Override
  public DeviceValue value() {
    return this;
  }

  @Override
  public boolean isZeroValue() {
    return false;
  }

  @Override
  public CelType celType() {
    return CelEnvironment.DEVICE_TYPE_NAME_REF;
  }
}
