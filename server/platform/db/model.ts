import { Model, snakeCaseMappers } from 'objection';

/** Any table's model: snake_case columns ↔ camelCase properties. Tables with their own key or no `updated_at` extend
 * this directly; entities with `id`, `created_at` and `updated_at` extend `BaseModel`. */
export class RecordModel extends Model {
  static override get columnNameMappers() {
    return snakeCaseMappers();
  }
}

/** An entity: `id`, `createdAt`, and `updatedAt` kept current on every update. */
export class BaseModel extends RecordModel {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
