package io.jdra.apiserver.admission;

import io.jdra.api.features.FeatureGates;
import io.jdra.apiserver.meta.Cause;
import java.time.Clock;
import java.util.List;

/**
 * The server's own admission: resource.k8s.io kinds through {@link DraAdmission} (which validates
 * their metadata too), every other kind through {@link CoreAdmission} (defaults and the default
 * admission plugins) then {@link MetadataAdmission}. Thread-safe.
 */
public final class BuiltInAdmission implements Admission {
  private final MetadataAdmission metadata = new MetadataAdmission();
  private final CoreAdmission core = new CoreAdmission();
  private final DraAdmission dra;
  private final WorkloadFields workloadFields;

  public BuiltInAdmission(FeatureGates gates, Clock clock) {
    this(gates, clock, false);
  }

  /**
   * With {@code shareStored}, claim updates write unchanged stored subtrees themselves (see {@link
   * DraAdmission#DraAdmission(FeatureGates, Clock, boolean)}).
   */
  public BuiltInAdmission(FeatureGates gates, Clock clock, boolean shareStored) {
    this.dra = new DraAdmission(gates, clock, shareStored);
    this.workloadFields = new WorkloadFields(gates);
  }

  @Override
  public List<Cause> admit(Request r) {
    if (DraAdmission.handles(r.type())) {
      return dra.admit(r);
    }
    workloadFields.drop(r);
    // Defaults and mutating plugins first; metadata errors are listed before the kind's own.
    List<Cause> kindCauses = core.admit(r);
    List<Cause> causes = metadata.admit(r);
    if (kindCauses.isEmpty()) {
      return causes;
    }
    List<Cause> all = new java.util.ArrayList<>(causes);
    all.addAll(kindCauses);
    return all;
  }
}
