import { Model, snakeCaseMappers } from 'objection';

/** Any table's model: snake_case columns ↔ camelCase properties. Tables with their own key or no `updated_at` extend
 * this directly; entities with `id`, `created_at` and `updated_at` extend `BaseModel`. */
export class RecordModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}

/**
 * An entity: `id`, `createdAt`, and `updatedAt` kept current on every update. A write that names its own
 * `updatedAt` keeps it (a command's unit-of-work clock, or the database's `now()`), so the status time it stamps
 * and `updatedAt` are one instant.
 */
export class BaseModel extends RecordModel {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    if (this.updatedAt === undefined) this.updatedAt = new Date();
  }
}
