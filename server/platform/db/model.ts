import { Model, snakeCaseMappers } from 'objection';

/** snake_case columns ↔ camelCase properties; `updatedAt` kept current on every update. */
export class BaseModel extends Model {
  id!: string;
  createdAt!: Date;
  updatedAt!: Date;

  static override get columnNameMappers() {
    return snakeCaseMappers();
  }

  override $beforeUpdate(): void {
    this.updatedAt = new Date();
  }
}
