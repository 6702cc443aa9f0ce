import { customType } from 'drizzle-orm/mysql-core';

/**
 * JSON stored as a JSON column on both servers. MariaDB's JSON is LONGTEXT (mysql2 hands back a
 * string) while MySQL 8's is binary (mysql2 hands back an object); this type reads either.
 */
export const jsonColumn = <T>(name: string) =>
  customType<{ data: T; driverData: string }>({
    dataType: () => 'json',
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => (typeof value === 'string' ? JSON.parse(value) : value) as T,
  })(name);
